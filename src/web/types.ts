// What a search provider is asked and answers (SPEC §24 "The web"), whichever provider it is.
import type { Clock } from '../util/clock'

/** One result as the mind reads it: text only, its URL http(s). */
export interface WebResult {
  title: string
  url: string
  /** as the provider gave it (an ISO date, Brave's "2 days ago"); absent when it gave none */
  date?: string
  snippet: string
}

export interface SearchPage {
  results: WebResult[]
  /** whether the provider says (or may have) a next page */
  more: boolean
}

export interface SearchQuery {
  query: string
  /** from 1 */
  page: number
  /** web.maxResults */
  max: number
}

/** Where and how a provider is reached: the owner's web section, the runtime's clock, the reader's stop. */
export interface Upstream {
  baseURL: string
  apiKey: string
  clock: Clock
  signal?: AbortSignal
}

export interface SearchProvider {
  /** the provider's name in what the mind reads ("SearXNG") */
  readonly title: string
  /** whether `&page=2` continues; false: only page 1 exists (Tavily) */
  readonly pages: boolean
  search(q: SearchQuery, to: Upstream): Promise<SearchPage>
}
