// Web search (SPEC §24 "The web"): the mind reads web://search?q=… through read, against fakes of
// SearXNG, Brave and Tavily that follow their documented APIs; pages, the 15-minute cache, the
// providers' errors in their words, HTML out of titles, the key kept out of sight, bad input bounded.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { lastToolValues } from '../support/fake-openai'
import { FakeWebSearch } from '../support/fake-web-search'
import { fakeClock } from '../support/fake-clock'
import { searxParams } from '../support/fakes/wire/searxng'
import { braveParams } from '../support/fakes/wire/brave-search'
import { systemClock, type Clock } from '../../src/util/clock'
import { UPSTREAM_TIMEOUT_MS } from '../../src/web/upstream'

const hits = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({
  title: `Result ${from + i}`, url: `https://example.org/${from + i}`, content: `About result ${from + i}.`,
}))

describe('web search: web://search through read (SPEC §24)', function () {
  this.timeout(20000)
  const installClock = fakeClock()
  let h: Harness | undefined
  let web: FakeWebSearch
  beforeEach(async () => { web = await FakeWebSearch.start() })
  afterEach(async () => {
    await h?.stop()
    await web.close()
    h = undefined
  })

  const start = (section: Record<string, unknown>, more: Record<string, unknown> = {}) =>
    Harness.start({ profile: { http: { enabled: false }, web: { search: 'searxng', baseURL: web.origin, maxResults: 3, ...section } }, ...more })

  /** One turn whose first step reads each url; the results as the model read them. */
  async function read(...urls: string[]): Promise<any[]> {
    const before = h!.server.requests.length
    h!.server.script({ toolCalls: urls.map(url => call('read', { url })) }, { toolCalls: [call('finish', {})] })
    await h!.client('alice', 'room').receive('<at id="514"/> look it up')
    await h!.server.waitForRequests(before + 2)
    await h!.settled()
    return lastToolValues(h!.server.requests[before + 1], urls.length)
  }

  it('SearXNG: one page of numbered results, &page=2 continues with its pageno, the protocol says how', async () => {
    h = await start({})
    web.searxng.script({ results: [...hits(3), { title: 'Dated', url: 'https://example.org/d', content: 'x', publishedDate: '2026-11-30T08:00:00' }] },
      { results: hits(3, 4) })
    const [first] = await read('web://search?q=kotodama bot')
    expect(first).to.include('Web search (SearXNG) for "kotodama bot", page 1:')
    expect(first).to.include('1. Result 1\n   https://example.org/1\n   About result 1.')
    expect(first).to.include('3. Result 3')
    expect(first, 'maxResults 3').not.to.include('Dated')
    expect(first).to.include('More: web://search?q=kotodama+bot&page=2')
    const [second] = await read('web://search?q=kotodama+bot&page=2')
    expect(second).to.include('page 2:').and.include('4. Result 4\n   https://example.org/4')
    const asked = web.searxng.requests.map(r => Object.fromEntries(searxParams(r)))
    expect(asked).to.deep.equal([{ q: 'kotodama bot', format: 'json', pageno: '1' }, { q: 'kotodama bot', format: 'json', pageno: '2' }])
    const system = h.server.requests[0].body.messages[0].content
    expect(system).to.include('read web://search?q=')
  })

  it('off by default: no protocol line, no web:// scheme (on, the other tests run with http off and a loopback baseURL)', async () => {
    h = await Harness.start({ profile: { http: { enabled: false } } })
    const [r] = await read('web://search?q=x')
    expect(r).to.match(/^unknown_scheme: "web" is not a registered scheme/)
    expect(h.server.requests[0].body.messages[0].content).not.to.include('web://')
  })

  it('a repeated query is read from the cache: one upstream request, a new one after 15 minutes', async () => {
    const clock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: true })
    h = await start({})
    web.searxng.fallback({ results: hits(2) })
    const [a, b] = await read('web://search?q=weather tokyo', 'web://search?q=weather%20tokyo')
    await read('web://search?q=weather+tokyo')
    expect(a).to.include('1. Result 1')
    expect(b).to.equal(a)
    expect(web.searxng.requests, 'one request for three reads').to.have.length(1)
    clock.tick(14 * 60_000)
    await read('web://search?q=weather tokyo')
    expect(web.searxng.requests).to.have.length(1)
    clock.tick(60_000 + 1)
    await read('web://search?q=weather tokyo')
    expect(web.searxng.requests, 'a new request after 15 minutes').to.have.length(2)
  })

  it('SearXNG with its JSON API off (403) says what the owner must change', async () => {
    web.searxngFormats = ['html']
    h = await start({})
    const [r] = await read('web://search?q=anything')
    expect(r).to.equal("read_failed: SearXNG answered 403 Forbidden: the instance's JSON API is off. "
      + "The owner must add json to search.formats in the instance's settings.yml (the default is html only) and restart it")
    expect(h.warnings().join('\n'), 'the owner reads it in the log').to.include('web search failed: SearXNG answered 403 Forbidden').and.include('json to search.formats').and.include('settings.yml')
    expect(web.searxng.requests).to.have.length(1)
  })

  it('HTML in titles and snippets is read as text; a result URL that is not http(s) is dropped', async () => {
    h = await start({})
    web.searxng.script({ results: [
      { title: '<b>Bold</b> &amp; <script>alert(1)</script>plain', url: 'https://example.org/a', content: 'a <em>fine</em>&nbsp;snippet' },
      { title: 'Evil', url: 'javascript:alert(1)', content: 'no' },
      { title: 'Data', url: 'data:text/html,<b>x</b>', content: 'no' },
    ] })
    const [r] = await read('web://search?q=markup')
    expect(r).to.include('1. Bold & plain\n   https://example.org/a\n   a fine snippet')
    expect(r).not.to.include('Evil').and.not.include('javascript:').and.not.include('Data')
  })

  it('Brave: the token in its header, count and offset as documented, <strong> out, its 429 in its words; the token never shown', async () => {
    const token = web.braveToken
    h = await start({ search: 'brave', baseURL: web.braveURL, apiKey: token })
    web.brave.script(
      { results: [{ title: 'The <strong>kotodama</strong> plugin', url: 'https://example.org/k', description: 'A <strong>mind</strong>', age: '2 days ago' }],
        more: true },
      { status: 429 },
    )
    const [first, second] = await read('web://search?q=kotodama', 'web://search?q=kotodama&page=3')
    expect(first).to.include('1. The kotodama plugin\n   https://example.org/k\n   2 days ago\n   A mind').and.include('&page=2')
    expect(second).to.equal('read_failed: Brave answered 429: Request rate limit exceeded for plan.')
    const [req1, req2] = web.brave.requests
    expect(req1.headers['x-subscription-token']).to.equal(token)
    expect(Object.fromEntries(braveParams(req1))).to.deep.equal({ q: 'kotodama', count: '3', offset: '0' })
    expect(braveParams(req2).get('offset')).to.equal('2')
    expect(JSON.stringify(h.server.requests.map(r => r.body))).not.to.include(token)
    expect(h.logs.map(l => l.text).join('\n')).not.to.include(token)
  })

  it('Tavily: POST with the Bearer key and max_results; no pages; a 500 in its words', async () => {
    h = await start({ search: 'tavily', baseURL: web.tavilyURL, apiKey: web.tavilyKey })
    web.tavily.script({ results: [{ title: 'T1', url: 'https://example.org/t', content: 'tav', published_date: 'Mon, 30 Nov 2026 10:00:00 GMT' }] },
      { status: 500, error: 'Internal Server Error: the search backend failed' })
    const [r, paged] = await read('web://search?q=tavily test', 'web://search?q=tavily test&page=2')
    expect(r).to.include('1. T1\n   https://example.org/t\n   Mon, 30 Nov 2026 10:00:00 GMT\n   tav').and.include('Tavily gives one page')
    expect(paged).to.include('Tavily gives one page of results')
    expect(web.tavily.requests).to.have.length(1)
    expect(web.tavily.requests[0].headers.authorization).to.equal(`Bearer ${web.tavilyKey}`)
    expect(web.tavily.requests[0].body).to.deep.equal({ query: 'tavily test', max_results: 3 })
    const [failed] = await read('web://search?q=other')
    expect(failed).to.equal('read_failed: Tavily answered 500: Internal Server Error: the search backend failed')
  })

  it('a wrong key is refused in the provider\'s words; a provider that echoes the key shows it masked', async () => {
    h = await start({ search: 'brave', baseURL: web.braveURL, apiKey: 'BSA-wrong-token-123456' })
    const [wrong] = await read('web://search?q=x')
    expect(wrong).to.equal('read_failed: Brave answered 401: The provided subscription token is invalid.')
    await h.stop()
    h = await start({ search: 'brave', baseURL: web.braveURL, apiKey: web.braveToken })
    web.brave.script({ status: 401, error: `token ${web.braveToken} is over its quota` })
    const [echoed] = await read('web://search?q=x')
    expect(echoed).to.equal('read_failed: Brave answered 401: token *** is over its quota')
    expect(h.warnings().join('\n')).to.include('token *** is over its quota').and.not.include(web.braveToken)
  })

  it('a provider that never answers is bounded: the read ends with the timeout in words, and the next query is asked again', async () => {
    h = await start({})
    // the runtime's clock fires the upstream deadline once the request reached the fake: the bound is tested, not 15 real seconds
    let hurry = true
    const clock: Clock = {
      ...systemClock,
      setTimeout(fn, ms) {
        if (!hurry || ms !== UPSTREAM_TIMEOUT_MS) return systemClock.setTimeout(fn, ms)
        let cancelled = false
        void web.searxng.waitForRequests(1).then(() => cancelled || fn())
        const timer = { cancel: () => { cancelled = true }, unref: () => timer }
        return timer
      },
    }
    h.app.kotodama.clock = clock
    web.searxng.script({ hang: true }, { results: hits(1) })
    const [hung] = await read('web://search?q=slow')
    expect(hung).to.equal('read_failed: SearXNG did not answer within 15 s')
    hurry = false
    const [again] = await read('web://search?q=slow')
    expect(again, 'a failure is not cached').to.include('1. Result 1')
  })

  it('bad input: a 100,000-character query, a page out of range, no words: clear errors, nothing sent', async () => {
    h = await start({})
    const long = 'q'.repeat(100_000)
    const [big, page, none] = await read(`web://search?q=${long}`, 'web://search?q=x&page=0', 'web://search?q=')
    expect(big).to.equal('invalid_url: the query has 100000 characters, more than 400: search with a few words')
    expect(page).to.include('page must be a whole number from 1 to 10')
    expect(none).to.include('the search has no words')
    expect(web.searxng.requests).to.have.length(0)
  })
})
