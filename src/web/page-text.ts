// One page of results as the mind reads it: numbered title, URL, date and snippet, then how to go on.
import type { SearchPage } from './types'
import { webURL, MAX_PAGE, type WebSearch } from './search-url'

export function pageText(s: WebSearch, page: SearchPage, o: { title: string; pages: boolean; max: number }): string {
  const head = `Web search (${o.title}) for ${JSON.stringify(s.query)}, page ${s.page}:`
  if (!page.results.length) return `${head} no results${s.page > 1 ? ' on this page' : ''}.`
  const first = o.pages ? (s.page - 1) * o.max + 1 : 1
  const lines = [head]
  page.results.forEach((r, i) => {
    lines.push(`${first + i}. ${r.title || '(no title)'}`, `   ${r.url}`)
    if (r.date) lines.push(`   ${r.date}`)
    if (r.snippet) lines.push(`   ${r.snippet}`)
  })
  if (!o.pages) lines.push(`(${o.title} gives one page of results; search with other words for more.)`)
  else if (page.more && s.page < MAX_PAGE) lines.push(`More: ${webURL({ ...s, page: s.page + 1 })}`)
  return lines.join('\n')
}
