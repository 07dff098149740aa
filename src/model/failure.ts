// Why a model request failed (SPEC §11): whether it fails over (*unavailable*) or not (*invalid*),
// and what to tell the owner, in the server's own words. A relay proxy may answer HTTP 200 with an
// `{"error": {...}}` body when its upstream failed: a 2xx answer without a usable completion is a
// failed request, judged by the body's own code (or by the body missing).
import { APICallError, RetryError } from 'ai'

const UNAVAILABLE = new Set([401, 403, 404, 408, 409, 429])
const QUOTE = 300

export type FailureKind = 'unavailable' | 'invalid'

const statusKind = (s: number): FailureKind => UNAVAILABLE.has(s) || s >= 500 ? 'unavailable' : 'invalid'

/** The error the retries ended with. */
function last(e: unknown): unknown {
  return RetryError.isInstance(e) ? e.lastError : e
}

/** 'unavailable' fails over and counts against the model; 'invalid' does neither. */
export function failureKind(e: unknown): FailureKind {
  const err = last(e)
  if (APICallError.isInstance(err)) {
    const s = err.statusCode
    // no status: the request never got an answer (connection refused, reset, DNS)
    if (s === undefined) return 'unavailable'
    if (s >= 200 && s < 300) return bodyKind(err.responseBody)
    return statusKind(s)
  }
  const name = (err as any)?.name
  // our own prompt or arguments were refused before any request was sent
  if (name === 'AI_InvalidPromptError' || name === 'AI_InvalidArgumentError') return 'invalid'
  // the provider's safety filter blocked the answer: another model is not asked to say it
  if (name === 'ContentFilteredError') return 'invalid'
  // timeouts, fetch failures, broken bodies: the server did not answer usefully
  return 'unavailable'
}

interface BodyError {
  message?: string
  code?: number | string
  type?: string
}

/** The `error` a 2xx body carries instead of a completion, if any. */
function bodyError(body: string | undefined): BodyError | undefined {
  if (!body?.trim()) return undefined
  let data: any
  try {
    data = JSON.parse(body)
  } catch {
    return undefined
  }
  const e = data?.error ?? (typeof data?.code === 'number' && data.code >= 400 ? data : undefined)
  if (!e) return undefined
  if (typeof e === 'string') return { message: e }
  return { message: typeof e.message === 'string' ? e.message : undefined, code: e.code ?? e.status, type: typeof e.type === 'string' ? e.type : undefined }
}

function bodyKind(body: string | undefined): FailureKind {
  const e = bodyError(body)
  // no body, a broken one, or one without choices: the server (or its upstream) did not answer
  if (!e) return 'unavailable'
  const code = typeof e.code === 'string' && /^\d{3}$/.test(e.code) ? Number(e.code) : e.code
  if (typeof code === 'number') return statusKind(code)
  // a relay that names no code: its upstream failed, unless it says our request was wrong
  return e.type === 'invalid_request_error' ? 'invalid' : 'unavailable'
}

const quote = (s: string) => s.length > QUOTE ? `${s.slice(0, QUOTE)}…` : s

/** What went wrong, as the server or the network said it; never "timeout" for a refused connection. */
export function describeFailure(e: unknown, timeoutMs?: number): string {
  const attempts = RetryError.isInstance(e) ? e.errors.length : 1
  const err = last(e) as any
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : ''
  if (APICallError.isInstance(err)) {
    const s = err.statusCode
    if (s === undefined) return `${network(err.cause) ?? quote(err.message)}${tries}`
    if (s >= 200 && s < 300) {
      const b = bodyError(err.responseBody)
      if (b) return `HTTP ${s} with an error body${b.code !== undefined ? ` (code ${b.code})` : ''}: ${quote(b.message ?? err.responseBody ?? '')}${tries}`
      const c = err.cause as { message?: string } | undefined
      const cause = c?.message && !err.message.includes(c.message) ? ` (${c.message})` : ''
      const body = err.responseBody ? ` — body: ${quote(err.responseBody)}` : ' (empty body)'
      return `HTTP ${s} without a usable completion: ${quote(err.message)}${cause}${body}${tries}`
    }
    return `HTTP ${s}: ${quote(err.message)}${tries}`
  }
  if (err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError') return `no answer within ${timeoutMs ?? '?'} ms (timeout)${tries}`
  return `${network(err?.cause) ?? quote(err?.message ?? String(err))}${tries}`
}

const CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed', ETIMEDOUT: 'connection timed out', EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable', UND_ERR_SOCKET: 'connection closed by the server',
}

/** A network failure in words (undici puts the system error in `cause`). */
function network(cause: any): string | undefined {
  const code = cause?.code ?? cause?.cause?.code
  if (typeof code !== 'string' || !CODES[code]) return undefined
  const where = cause?.address ? ` ${cause.address}${cause.port ? `:${cause.port}` : ''}` : ''
  return `${CODES[code]} (${code}${where})`
}
