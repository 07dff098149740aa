// 32. A repeated web query (SPEC §24): through the real plugin against the fake SearXNG, a turn that
// reads web://search?q=… twice and a later turn that reads it again send one upstream request
// (target 1); and the read of a cached page against the first read of a query (upstream, the fake
// answering at once), both through the runtime's resource center as the read tool calls it.
import { Harness, call } from '../tests/support/harness'
import { FakeWebSearch } from '../tests/support/fake-web-search'
import { median, now, type Mode, type Row } from './measure'

const RESULTS = Array.from({ length: 8 }, (_, i) => ({
  title: `Result ${i + 1} about the weather`, url: `https://example.org/weather/${i + 1}`, content: 'Sunny with a light breeze. '.repeat(6),
}))

export async function webSearch(mode: Mode): Promise<Row[]> {
  const web = await FakeWebSearch.start()
  web.searxng.fallback({ results: RESULTS })
  const h = await Harness.start({ profile: { web: { search: 'searxng', baseURL: web.origin } } })
  try {
    const url = 'web://search?q=weather in tokyo'
    for (const calls of [[call('read', { url }), call('read', { url })], [call('read', { url })]]) {
      h.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
      const before = h.server.requests.length
      await h.client('alice', 'room').receive('<at id="514"/> weather?')
      await h.server.waitForRequests(before + 2)
      await h.settled()
    }
    const upstream = web.searxng.requests.length
    const [runtime] = await h.app.kotodama.list()
    const read = (u: string) => runtime.resources.read(u, { whole: false, maxBytes: 64 * 1024 })
    const rounds = mode.full ? 200 : 50
    const first: number[] = []
    const cached: number[] = []
    for (let r = -5; r < rounds; r++) {
      const u = `web://search?q=bench query ${r}`
      const t0 = now()
      const a = await read(u)
      const t1 = now()
      await read(u)
      const t2 = now()
      if (a.kind !== 'text') throw new Error(`read ${u}: ${JSON.stringify(a)}`)
      if (r >= 0) first.push(t1 - t0), cached.push(t2 - t1)
    }
    const hit = median(cached)
    const miss = median(first)
    return [
      {
        benchmark: '32 web search: upstream requests for a repeated query', figure: upstream, unit: 'requests',
        target: '1', pass: upstream === 1, note: 'two reads in one step and one in a later turn, through the read tool',
      },
      {
        benchmark: '32 web search: a cached page read', figure: hit, unit: 'ms', baseline: miss,
        baselineLabel: 'the first read (upstream on 127.0.0.1)', ratio: hit / miss,
        note: `${rounds} queries after 5 warm-up ones; the fake answers at once, so the baseline is fetch + parse + render, no network wait`,
      },
    ]
  } finally {
    await h.stop()
    await web.close()
  }
}
