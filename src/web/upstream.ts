// One request to a search provider with Node's own fetch (no Koishi): bounded in time (a server that
// never answers) and in size, its failure told in the provider's words: the status and its message.
import { ResourceError } from '../resources/errors'
import { clip } from '../util/clip'
import { plainText } from './text'
import type { Upstream } from './types'

export const UPSTREAM_TIMEOUT_MS = 15_000
/** a page of results is a few kB; more is no search answer */
export const UPSTREAM_MAX_BYTES = 2 * 1024 * 1024

/** A provider's refusal: `status` is its HTTP status, the message its own words. */
export class UpstreamError extends ResourceError {
  constructor(readonly status: number, message: string) {
    super('read_failed', message)
  }
}

/** The provider's answer as JSON; throws UpstreamError (a status of 400 and above, a timeout, no JSON). */
export async function askJSON(title: string, url: URL, init: RequestInit, to: Upstream,
  explain?: (status: number, words: string) => string | undefined): Promise<any> {
  const stop = new AbortController()
  const timer = to.clock.setTimeout(() => stop.abort(), UPSTREAM_TIMEOUT_MS).unref()
  const onAbort = () => stop.abort()
  to.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const res = await fetch(url, { ...init, signal: stop.signal, redirect: 'follow' })
    const body = await boundedText(res)
    if (!res.ok) {
      const words = wordsOf(body) || res.statusText
      throw new UpstreamError(res.status, explain?.(res.status, words) ?? `${title} answered ${res.status}${words ? `: ${words}` : ''}`)
    }
    try {
      return JSON.parse(body)
    } catch {
      throw new UpstreamError(res.status, `${title} answered ${res.status} without JSON: ${clip(plainText(body, 200))}`)
    }
  } catch (e: any) {
    if (e instanceof ResourceError) throw e
    if (to.signal?.aborted) throw new ResourceError('read_failed', 'the search was stopped')
    if (stop.signal.aborted) throw new UpstreamError(0, `${title} did not answer within ${UPSTREAM_TIMEOUT_MS / 1000} s`)
    const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(e)
    throw new UpstreamError(0, `${title} could not be reached at ${url.origin}: ${clip(String(cause))}`)
  } finally {
    timer.cancel()
    to.signal?.removeEventListener('abort', onAbort)
  }
}

async function boundedText(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (declared > UPSTREAM_MAX_BYTES) {
    await res.body?.cancel()
    throw new UpstreamError(res.status, `the answer is ${declared} bytes, more than ${UPSTREAM_MAX_BYTES}`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body ?? []) {
    size += chunk.length
    if (size > UPSTREAM_MAX_BYTES) throw new UpstreamError(res.status, `the answer is longer than ${UPSTREAM_MAX_BYTES} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** A provider's own message in an error body (Brave's error.detail, Tavily's detail.error, SearXNG's text), as text. */
export function wordsOf(body: string): string {
  let json: any
  try {
    json = JSON.parse(body)
  } catch {
    return plainText(body, 300)
  }
  const found = [json?.error?.detail, json?.error?.message, json?.detail?.error, json?.detail, json?.message, json?.error]
    .find(v => typeof v === 'string' && v.trim())
  return found ? plainText(found, 300) : clip(JSON.stringify(json), 300)
}
