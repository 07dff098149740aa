// Child of prefetch.ts: a burst of inbound images registered with fetch at arrival against a slow
// local server, bounded (the store's limit) and unbounded, alternating; reports each round's figures.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { AssetStore, type Fetcher } from '../src/resources/schemes/asset-store'
import { httpGet } from '../src/resources/schemes/http-fetch'
import { now, report } from './measure'

const [tmp, countArg, repsArg, delayArg, kbArg] = process.argv.slice(2)
const COUNT = Number(countArg)
const DELAY_MS = Number(delayArg)
// a PNG signature and filler: sniffed as image/png like a real picture
const BODY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(Number(kbArg) * 1024 - 8, 7)])
const gc = (globalThis as any).gc as () => void
/** the JS heap and the buffers outside it (a fetched body is an ArrayBuffer, not heap) */
const used = () => { const u = process.memoryUsage(); return u.heapUsed + u.arrayBuffers }

const fetcher: Fetcher = async (url, o) => {
  const r = await httpGet(url, { allowPrivate: true, ...o })
  return { data: r.data, mediaType: r.mediaType }
}

type Way = 'bounded' | 'unbounded' | 'lazy'

async function main() {
  const stats = { open: 0, peak: 0 }
  const server = createServer((_req, res) => {
    stats.open++
    stats.peak = Math.max(stats.peak, stats.open)
    res.once('close', () => { stats.open-- })
    setTimeout(() => res.writeHead(200, { 'content-type': 'image/png', 'content-length': BODY.length }).end(BODY), DELAY_MS)
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let n = 0

  /**
   * `lazy`: registration only (no fetch), what ingest cost before fetch at arrival. `memory`: the
   * heap sampled after a gc() every 10 ms (live bytes, not garbage), in rounds of their own: the gc
   * calls would slow the timed ones.
   */
  async function round(way: Way, memory = false) {
    const dir = await mkdtemp(join(tmp, 'prefetch-'))
    const store = new AssetStore(dir, fetcher)
    if (way === 'unbounded') store.arrivals.concurrency = Infinity
    stats.peak = 0
    gc()
    const before = used()
    let heapPeak = before
    const sample = setInterval(() => {
      if (memory) gc()
      heapPeak = Math.max(heapPeak, used())
    }, memory ? 10 : 2)
    const t = now()
    const ids: string[] = []
    // one message after another, as the ingest path stores them
    for (let i = 0; i < COUNT; i++) ids.push(await store.register(`${base}/${++n}.png?rkey=x`, { mediaType: 'image/png' }, { fetchNow: way !== 'lazy' }))
    const registered = now() - t
    await store.idle()
    const stored = now() - t
    clearInterval(sample)
    heapPeak = Math.max(heapPeak, used())
    gc()
    const retainedMB = (used() - before) / 1024 / 1024
    if (way !== 'lazy') {
      const kept = (await Promise.all(ids.map(id => store.fetched(id)))).filter(Boolean).length
      if (kept !== COUNT) throw new Error(`${way}: ${kept} of ${COUNT} stored`)
    }
    store.stop()
    await rm(dir, { recursive: true, force: true })
    return { registered, stored, peak: stats.peak, heapPeakMB: (heapPeak - before) / 1024 / 1024, retainedMB }
  }

  const rounds: Record<Way, Awaited<ReturnType<typeof round>>[]> = { bounded: [], unbounded: [], lazy: [] }
  const ways: Way[] = ['bounded', 'unbounded', 'lazy']
  await round('bounded')   // warm-up
  for (let r = 0; r < Number(repsArg); r++) {
    for (const way of r % 2 ? [...ways].reverse() : ways) rounds[way].push(await round(way))
  }
  const memory = { bounded: await round('bounded', true), unbounded: await round('unbounded', true) }
  server.close()
  report({ rounds, memory })
}

main().catch((e) => { console.error(e); process.exit(1) })
