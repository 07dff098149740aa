// Tavily Search (docs.tavily.com, "Search" API reference): POST https://api.tavily.com/search with
// Authorization: Bearer <key> and { query, max_results } → { results: [{ title, url, content,
// published_date? }] }; errors are { detail: { error } }. It has no pages.
import { askJSON } from './upstream'
import { resultOf } from './text'
import type { SearchProvider } from './types'

export const TAVILY_ENDPOINT = 'https://api.tavily.com/search'

export const tavily: SearchProvider = {
  title: 'Tavily',
  pages: false,
  async search(q, to) {
    const init: RequestInit = {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${to.apiKey}` },
      body: JSON.stringify({ query: q.query, max_results: q.max }),
    }
    const json = await askJSON('Tavily', new URL(to.baseURL || TAVILY_ENDPOINT), init, to)
    const raw: any[] = Array.isArray(json?.results) ? json.results : []
    const results = raw.flatMap(r => resultOf({ url: r?.url, title: r?.title, snippet: r?.content, date: r?.published_date }))
    return { results: results.slice(0, q.max), more: false }
  },
}
