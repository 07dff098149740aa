// Brave Search API's web search, for the scripted server. Follows the Brave Search API
// documentation (api-dashboard.search.brave.com/app/documentation/web-search: "Query parameters"
// q ≤ 400 characters, count ≤ 20, offset ≤ 9; "Request headers" X-Subscription-Token; "Response
// objects" WebSearchApiResponse with query.more_results_available and web.results[] of title, url,
// description (matches in <strong>), age, page_age) and its error responses
// ({ type: 'ErrorResponse', error: { id, status, code, detail, meta } }: 401 SUBSCRIPTION_TOKEN_INVALID,
// 422 VALIDATION, 429 RATE_LIMITED).
import type { Delivery, Payload, RecordedRequest, Wire } from '../scripted-server'

export interface BraveResult {
  url: string
  title: string
  description?: string
  age?: string
  page_age?: string
}

export interface BraveReply extends Delivery {
  results?: BraveResult[]
  more?: boolean
  /** with `status`: the error's code (RATE_LIMITED) and detail */
  code?: string
  error?: string
}

const CODES: Record<number, [string, string]> = {
  401: ['SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.'],
  422: ['VALIDATION', 'Unable to validate request parameter(s)'],
  429: ['RATE_LIMITED', 'Request rate limit exceeded for plan.'],
}

export function braveError(status: number, code?: string, detail?: string): Payload {
  const [c, d] = CODES[status] ?? ['INTERNAL_ERROR', 'Internal error']
  return {
    status,
    json: { type: 'ErrorResponse', error: { id: 'e7a1f5c2-0000-4000-8000-000000000001', status, code: code ?? c, detail: detail ?? d, meta: {} }, time: 1735689600 },
  }
}

export const braveParams = (req: RecordedRequest) => new URLSearchParams(req.query)

/** `token`: the subscription token the fake accepts. */
export function braveSearch(token: () => string): Wire<BraveReply> {
  return {
    error: (status, message) => braveError(status, undefined, message),
    check(req) {
      if (req.headers['x-subscription-token'] !== token()) return { status: 401, message: CODES[401][1] }
      const p = braveParams(req)
      const q = p.get('q') ?? ''
      const count = Number(p.get('count') ?? 20)
      const offset = Number(p.get('offset') ?? 0)
      if (!q || q.length > 400 || !(count >= 1 && count <= 20) || !(offset >= 0 && offset <= 9)) return { status: 422, message: CODES[422][1] }
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return braveError(reply.status, reply.code, reply.error)
      const results = (reply.results ?? []).map(r => ({ type: 'search_result', language: 'en', family_friendly: true, description: '', ...r }))
      return {
        status: 200,
        json: {
          type: 'search',
          query: { original: braveParams(req).get('q'), more_results_available: reply.more ?? false },
          web: { type: 'search', family_friendly: true, results },
        },
      }
    },
  }
}
