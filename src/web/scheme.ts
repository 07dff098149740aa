// The web:// scheme (SPEC §24): `read web://search?q=…` asks the profile's provider (or the cache)
// and returns one page of results as text, paged and archived like any text read. A query sent
// upstream is a paid request: counted against a program's paid calls, the budgets, the usage book.
import { BudgetExceeded } from '../contract/budget'
import { PaidCallLimit } from '../contract/paid-calls'
import type { CallPort } from '../model/calls'
import { ResourceError } from '../resources/errors'
import { textResult, type TextArchive } from '../resources/schemes/text-result'
import type { ReadOptions, ReadResult, SchemeHandler } from '../resources/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { clip } from '../util/clip'
import type { PageCache } from './cache'
import type { WebConfig } from './config'
import { pageText } from './page-text'
import { SCHEME, parseWebURL, webURL } from './search-url'
import type { SearchPage, SearchProvider } from './types'
import { UpstreamError } from './upstream'

export interface WebSchemeDeps {
  config: WebConfig
  provider: SearchProvider
  cache: PageCache
  calls: Pick<CallPort, 'priced'>
  clock: Clock
  logger: Logger
  archive: TextArchive
}

export function webScheme(o: WebSchemeDeps): SchemeHandler {
  const { config, provider } = o
  const ask = (query: string, page: number, opts: ReadOptions): Promise<SearchPage> => {
    try {
      opts.paid?.('a web search')
    } catch (e) {
      if (e instanceof PaidCallLimit) throw new ResourceError('paid_call_limit', `PaidCallLimit: ${e.message}`)
      throw e
    }
    const to = { baseURL: config.baseURL, apiKey: config.apiKey, clock: o.clock, signal: opts.signal }
    return o.calls.priced({ label: `web:${config.search}`, cost: config.price, call: () => provider.search({ query, page, max: config.maxResults }, to) })
      .catch(e => {
        // the owner reads why (a 403 of SearXNG names the setting to change); the mind gets the same words
        if (e instanceof UpstreamError) o.logger.warn('web search failed: %s', e.message)
        if (e instanceof BudgetExceeded) throw new ResourceError('budget_exceeded', `BudgetExceeded: ${e.message}`)
        throw e
      })
  }
  return {
    scheme: SCHEME,
    async read(url, opts): Promise<ReadResult> {
      const s = parseWebURL(url)
      if (s.page > 1 && !provider.pages) {
        throw new ResourceError('invalid_url', `${provider.title} gives one page of results: there is no page ${s.page}; search with other words for more`)
      }
      const key = `${config.search}\n${s.query}\n${s.page}`
      const { page } = await o.cache.get(key, () => ask(s.query, s.page, opts))
      const text = pageText(s, page, { title: provider.title, pages: provider.pages, max: config.maxResults })
      return textResult({ url: webURL(s), text, mediaType: 'text/plain' }, opts, o.archive)
    },
    async bytes(url) {
      throw new ResourceError('forbidden', `${clip(url)} is a page of search results, not media`)
    },
  }
}
