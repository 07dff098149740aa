// Brave Search API, web search (api-dashboard.search.brave.com/app/documentation/web-search):
// GET https://api.search.brave.com/res/v1/web/search?q=…&count=…&offset=… with X-Subscription-Token
// → { query: { more_results_available }, web: { results: [{ title, url, description, age? }] } };
// `offset` counts pages of `count` (0 to 9); errors are { type: 'ErrorResponse', error: { status, code, detail } }.
import { askJSON } from './upstream'
import { resultOf } from './text'
import type { SearchProvider } from './types'

export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search'
/** Brave's largest offset */
export const BRAVE_LAST_PAGE = 10

export const brave: SearchProvider = {
  title: 'Brave',
  pages: true,
  async search(q, to) {
    const url = new URL(to.baseURL || BRAVE_ENDPOINT)
    url.search = new URLSearchParams({ q: q.query, count: String(q.max), offset: String(q.page - 1) }).toString()
    const json = await askJSON('Brave', url, { headers: { accept: 'application/json', 'x-subscription-token': to.apiKey } }, to)
    const raw: any[] = Array.isArray(json?.web?.results) ? json.web.results : []
    const results = raw.flatMap(r => resultOf({ url: r?.url, title: r?.title, snippet: r?.description, date: r?.age ?? r?.page_age }))
    return { results: results.slice(0, q.max), more: json?.query?.more_results_available === true && q.page < BRAVE_LAST_PAGE }
  },
}
