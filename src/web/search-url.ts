// web://search?q=…&page=N, the one address of the web scheme (SPEC §24): the query and the page,
// checked before anything is sent (a query of 100,000 characters never leaves).
import { ResourceError } from '../resources/errors'
import { quote } from '../util/clip'

export const SCHEME = 'web'
/** Brave takes 400 characters of query; a longer one is no search */
export const MAX_QUERY = 400
export const MAX_PAGE = 10

export interface WebSearch {
  query: string
  page: number
}

export function parseWebURL(url: string): WebSearch {
  const m = /^web:\/\/search\/?(?:\?(.*))?$/is.exec(url)
  if (!m) throw new ResourceError('invalid_url', `${quote(url)} is no web search; write web://search?q=your+words`)
  const params = new URLSearchParams(m[1] ?? '')
  const query = (params.get('q') ?? '').replace(/\s+/g, ' ').trim()
  if (!query) throw new ResourceError('invalid_url', 'the search has no words: write web://search?q=your+words')
  if ([...query].length > MAX_QUERY) {
    throw new ResourceError('invalid_url', `the query has ${[...query].length} characters, more than ${MAX_QUERY}: search with a few words`)
  }
  const rawPage = params.get('page') ?? '1'
  const page = Number(rawPage)
  if (!/^\d+$/.test(rawPage) || page < 1 || page > MAX_PAGE) {
    throw new ResourceError('invalid_url', `page must be a whole number from 1 to ${MAX_PAGE}, not ${quote(rawPage, 20)}`)
  }
  return { query, page }
}

/** The address of a page of a search (what the mind reads next). */
export function webURL(s: WebSearch): string {
  const q = new URLSearchParams({ q: s.query }).toString()
  return `${SCHEME}://search?${q}${s.page > 1 ? `&page=${s.page}` : ''}`
}
