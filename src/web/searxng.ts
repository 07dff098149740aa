// SearXNG's JSON API (docs.searxng.org, "Search API"): GET <instance>/search?q=…&format=json&pageno=N
// → { results: [{ title, url, content, publishedDate? }] }. An instance serves JSON only when its
// settings.yml lists json in search.formats (the default lists html only); else it answers 403.
import { askJSON } from './upstream'
import { resultOf } from './text'
import type { SearchProvider } from './types'

const TITLE = 'SearXNG'

export const searxng: SearchProvider = {
  title: TITLE,
  pages: true,
  async search(q, to) {
    const url = new URL('search', to.baseURL.endsWith('/') ? to.baseURL : to.baseURL + '/')
    url.search = new URLSearchParams({ q: q.query, format: 'json', pageno: String(q.page) }).toString()
    // Flask's 403 page says only "Forbidden": the cause is told instead
    const json = await askJSON(TITLE, url, { headers: { accept: 'application/json' } }, to, status => status === 403
      ? "SearXNG answered 403 Forbidden: the instance's JSON API is off. The owner must add json to search.formats "
        + "in the instance's settings.yml (the default is html only) and restart it"
      : undefined)
    const raw: any[] = Array.isArray(json?.results) ? json.results : []
    const results = raw.flatMap(r => resultOf({ url: r?.url, title: r?.title, snippet: r?.content, date: r?.publishedDate }))
    // SearXNG tells no total that holds across engines: another page may exist while this one had results
    return { results: results.slice(0, q.max), more: raw.length > 0 }
  },
}
