// The three web search providers of SPEC §24 on one scripted server (127.0.0.1): SearXNG's
// GET /search, Brave's GET /res/v1/web/search and Tavily's POST /search, each speaking its API as
// its wire module (fakes/wire/searxng.ts, brave-search.ts, tavily.ts) documents. `web.baseURL` points
// at `origin` (SearXNG's instance root, Brave's and Tavily's proxy).
import { ScriptedServer, type Endpoint } from './fakes/scripted-server'
import { searxngSearch, type SearxReply } from './fakes/wire/searxng'
import { braveSearch, type BraveReply } from './fakes/wire/brave-search'
import { tavilySearch, type TavilyReply } from './fakes/wire/tavily'

export interface FakeWebSearchOptions {
  /** the instance's search.formats; default ['html', 'json'] (json enabled, as the README tells) */
  searxngFormats?: string[]
  braveToken?: string
  tavilyKey?: string
}

export class FakeWebSearch {
  /** the instance's search.formats: ['html'] is SearXNG's default, JSON off */
  searxngFormats: string[]
  braveToken: string
  tavilyKey: string

  private constructor(
    readonly server: ScriptedServer,
    readonly searxng: Endpoint<SearxReply>,
    readonly brave: Endpoint<BraveReply>,
    readonly tavily: Endpoint<TavilyReply>,
    o: FakeWebSearchOptions,
  ) {
    this.searxngFormats = o.searxngFormats ?? ['html', 'json']
    this.braveToken = o.braveToken ?? 'BSA-fake-subscription-token'
    this.tavilyKey = o.tavilyKey ?? 'tvly-fake-api-key-0001'
  }

  static async start(o: FakeWebSearchOptions = {}): Promise<FakeWebSearch> {
    const server = await ScriptedServer.start({ name: 'fake-web-search' })
    let fake: FakeWebSearch | undefined
    const searxng = server.mount('GET', '/search', searxngSearch(() => fake!.searxngFormats), 'searxng')
    const brave = server.mount('GET', '/res/v1/web/search', braveSearch(() => fake!.braveToken), 'brave')
    const tavily = server.mount('POST', '/search', tavilySearch(() => fake!.tavilyKey), 'tavily')
    return fake = new FakeWebSearch(server, searxng, brave, tavily, o)
  }

  /** SearXNG's instance root */
  get origin(): string {
    return this.server.origin
  }

  /** Brave's endpoint on this server (web.baseURL for brave) */
  get braveURL(): string {
    return `${this.server.origin}/res/v1/web/search`
  }

  /** Tavily's endpoint on this server (web.baseURL for tavily) */
  get tavilyURL(): string {
    return `${this.server.origin}/search`
  }

  close(): Promise<void> {
    return this.server.close()
  }
}
