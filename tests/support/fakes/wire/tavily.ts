// Tavily's search endpoint, for the scripted server. Follows docs.tavily.com "API Reference › Search"
// (POST /search, Authorization: Bearer tvly-…, body { query, max_results ≤ 20, … }; the answer
// { query, answer, images, results: [{ title, url, content, score, raw_content, published_date? }],
// response_time }) and its errors ({ detail: { error } }: 400, 401 missing or invalid key, 429, 432/433 plan limits).
import type { Delivery, Payload, Wire } from '../scripted-server'

export interface TavilyResult {
  url: string
  title: string
  content?: string
  published_date?: string
}

export interface TavilyReply extends Delivery {
  results?: TavilyResult[]
  error?: string
}

export const tavilyError = (status: number, error: string): Payload => ({ status, json: { detail: { error } } })

/** `key`: the API key the fake accepts. */
export function tavilySearch(key: () => string): Wire<TavilyReply> {
  return {
    error: (status, message) => tavilyError(status, message),
    check(req) {
      if (req.headers.authorization !== `Bearer ${key()}`) return { status: 401, message: 'Unauthorized: missing or invalid API key.' }
      const max = req.body?.max_results ?? 5
      if (typeof req.body?.query !== 'string' || !req.body.query) return { status: 400, message: 'Query is missing.' }
      if (!Number.isInteger(max) || max < 0 || max > 20) return { status: 400, message: 'max_results must be between 0 and 20.' }
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return tavilyError(reply.status, reply.error ?? 'Internal Server Error')
      const results = (reply.results ?? []).map(r => ({ content: '', score: 0.9, raw_content: null as string | null, ...r }))
      return { status: 200, json: { query: req.body.query, follow_up_questions: null, answer: null, images: [], results, response_time: 0.42 } }
    },
  }
}
