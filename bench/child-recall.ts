// Child of bench 14 (recall at scale): indexes `count` synthetic chat messages into one
// conversation's index, then searches it.
//   node child-recall.ts <dir> <count> <queries>
// Prints: time per message (indexing, merges included), disk bytes per message, heap (after GC)
// before and while searching (the highest heapUsed seen right after a search), search p50/p99;
// finding a message by its id (history:// URLs, SPEC §27) p50/p99, for ids of random messages and
// ids no message has, and reading every segment back for an id as an index written before ids were
// terms does (id-scan.ts).
import { readdir, stat, rm, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { queryTerms } from '../src/recall/analyze'
import { ConvIndex } from '../src/recall/conv-index'
import { scanForId } from '../src/recall/id-scan'
import type { RecallDoc } from '../src/recall/docs'
import { MB, now, percentile, report } from './measure'
import { rng } from './recall-data'

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error }
const gc = () => { for (let i = 0; i < 3; i++) (globalThis as any).gc?.() }

/** A Zipf-like vocabulary of made-up words, with some Chinese words among them. */
function vocabulary(r: () => number, size: number): string[] {
  const syll = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'ni', 'vel', 'dor', 'qui', 'ba', 'zen', 'pa', 'li', 'mor', 'ste', 'an', 'ur', 'tek', 'go']
  const han = '天地人山水火木金土日月风云雨雪花草鸟鱼虫车马路桥门窗书画茶酒饭菜'
  const out = new Set<string>()
  while (out.size < size) {
    if (r() < 0.15) out.add(Array.from({ length: 2 }, () => han[Math.floor(r() * han.length)]).join(''))
    else out.add(Array.from({ length: 2 + Math.floor(r() * 3) }, () => syll[Math.floor(r() * syll.length)]).join(''))
  }
  return [...out]
}

async function main() {
  const [dir, countArg, queriesArg] = process.argv.slice(2)
  const count = Number(countArg)
  const queries = Number(queriesArg)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const r = rng(7)
  const words = vocabulary(r, 60_000)
  // Zipf(1): the word of rank k is drawn with weight 1/k
  const cdf = new Float64Array(words.length)
  let sum = 0
  for (let k = 0; k < words.length; k++) cdf[k] = sum += 1 / (k + 1)
  const draw = () => {
    const x = r() * sum
    let lo = 0
    let hi = cdf.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cdf[mid] < x) lo = mid + 1
      else hi = mid
    }
    return words[lo]
  }
  const speakers = Array.from({ length: 50 }, (_, i) => `user${i}`)
  const message = (i: number): RecallDoc => {
    const n = 4 + Math.floor(r() * 20)
    const who = speakers[Math.floor(r() * speakers.length)]
    return { k: `f:g:${i}`, id: String(i), at: Date.UTC(2024, 0, 1) + i * 30_000, who, uid: who, ch: 'group:g', text: Array.from({ length: n }, draw).join(' ') }
  }
  const idx = await ConvIndex.open(dir, quiet)
  const t0 = now()
  const BATCH = 1000
  for (let i = 0; i < count; i += BATCH) {
    const batch: RecallDoc[] = []
    for (let j = i; j < Math.min(count, i + BATCH); j++) batch.push(message(j))
    await idx.add(batch)
  }
  await idx.idle()
  await idx.merged()
  const indexMs = now() - t0
  let bytes = 0
  for (const name of await readdir(dir)) bytes += (await stat(join(dir, name))).size
  // queries: three words of a random earlier message, as someone asking about it would
  const qs: string[] = []
  const qr = rng(11)
  for (let q = 0; q < queries; q++) {
    const n = Math.floor(qr() * count)
    const [doc] = idx.docs(n, n + 1)
    const ws = doc.text.split(' ')
    qs.push(Array.from({ length: 3 }, () => ws[Math.floor(qr() * ws.length)]).join(' '))
  }
  for (const q of qs.slice(0, 20)) idx.search(queryTerms(q), { limit: 10 })
  gc()
  const before = process.memoryUsage().heapUsed
  let peak = before
  const times: number[] = []
  for (const q of qs) {
    const t = now()
    idx.search(queryTerms(q), { limit: 10 })
    times.push(now() - t)
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  gc()
  const after = process.memoryUsage().heapUsed
  const timed = (f: () => unknown) => {
    const t = now()
    f()
    return now() - t
  }
  const ids = Array.from({ length: queries }, () => String(Math.floor(qr() * count)))
  const idTimes = ids.map(id => timed(() => idx.numberOf(id)))
  const missTimes = ids.map((_, i) => timed(() => idx.numberOf(`none-${i}`)))
  const scanMs = timed(() => idx.segments.forEach(s => {
    scanForId(s, 'none', s.count)
    s.release()
  }))
  await idx.close()
  report({
    count, indexMs, usPerMessage: 1000 * indexMs / count, bytesPerMessage: bytes / count, segments: idx.segments.length,
    heapBeforeMB: before / MB, heapPeakMB: peak / MB, heapAfterMB: after / MB, p50: percentile(times, 50), p99: percentile(times, 99),
    rssMB: process.memoryUsage().rss / MB,
    idP50: percentile(idTimes, 50), idP99: percentile(idTimes, 99), missP50: percentile(missTimes, 50), scanMs,
  })
}

main().catch(e => { console.error(e); process.exit(1) })
