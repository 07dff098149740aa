// Child of bench 15 (recall's memory, SPEC §17): the heap an open index keeps after `count`
// messages of `words` words each, every word new (`new`: made-up words, as keyboard mashing, codes
// and names give) or drawn from a vocabulary of 2,000 (`common`: the baseline, ordinary chat).
//   node --expose-gc child-recall-words.ts <dir> <count> <words> <new|common>
// Prints: retained heap growth (after GC) from the empty index open, the live buffer's terms, segments.
import { mkdir, rm } from 'node:fs/promises'
import { ConvIndex } from '../src/recall/conv-index'
import type { RecallDoc } from '../src/recall/docs'
import { MB, report } from './measure'
import { rng } from './recall-data'

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error }
const gc = () => { for (let i = 0; i < 3; i++) (globalThis as any).gc?.() }

async function main() {
  const [dir, countArg, wordsArg, kind] = process.argv.slice(2)
  const count = Number(countArg)
  const words = Number(wordsArg)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const r = rng(5)
  const made = () => Array.from({ length: 6 + Math.floor(r() * 6) }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('')
  const vocabulary = Array.from({ length: 2000 }, made)
  const word = kind === 'new' ? made : () => vocabulary[Math.floor(r() * vocabulary.length)]
  const idx = await ConvIndex.open(dir, quiet)
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < count; i++) {
    const text = Array.from({ length: words }, word).join(' ')
    const doc: RecallDoc = { k: `f:g:${i}`, id: String(i), at: Date.UTC(2026, 0, 1) + i * 1000, who: 'ann', uid: 'ann', ch: 'group:g', text }
    await idx.add([doc])
  }
  await idx.idle()
  await idx.merged()
  gc()
  const after = process.memoryUsage().heapUsed
  report({ retainedMB: (after - before) / MB, liveTerms: idx.live.terms, segments: idx.segments.length })
  await idx.close()
}

main().catch(e => { console.error(e); process.exit(1) })
