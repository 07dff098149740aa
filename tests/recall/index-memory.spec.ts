// SPEC §17: the index costs bounded memory whatever the history. Every new word people write is a
// term of the live buffer's dictionary until the buffer becomes a segment on disk; messages of
// random words (each word new) must not make the heap grow with the history (issue 37, defect 6a).
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { queryTerms } from '../../src/recall/analyze'
import { ConvIndex } from '../../src/recall/conv-index'
import type { RecallDoc } from '../../src/recall/docs'
import { DEFAULT_TUNING } from '../../src/recall'

setFlagsFromString('--expose-gc')
const gc: () => void = runInNewContext('gc')
const quiet = { debug() {}, info() {}, warn() {}, error() {} }

/** The heap after full collections, in MB. */
function retainedMB(): number {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed / 1048576
}

/** A made-up word of 6 to 11 letters: practically every one is new. */
function randomWord(r: () => number): string {
  let w = ''
  for (let n = 6 + Math.floor(r() * 6); n > 0; n--) w += String.fromCharCode(97 + Math.floor(r() * 26))
  return w
}

describe('recall index: memory bounded whatever the words (SPEC §17)', function () {
  this.timeout(60000)
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-recall-mem-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('messages of new words do not grow the heap: the live dictionary becomes a segment in time', async function () {
    let seed = 1
    // mulberry32: enough distinct words, the same every run
    const r = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t ^= t + Math.imul(t ^ (t >>> 7), 61 | t)
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
    const idx = await ConvIndex.open(dir, quiet)
    const first: RecallDoc[] = []
    const heap: number[] = []
    const WORDS = 250
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 150; i++) {
        const n = round * 150 + i
        const doc: RecallDoc = { k: `f:g:${n}`, id: String(n), at: Date.UTC(2026, 0, 1) + n * 1000, who: 'ann', uid: 'ann', ch: 'g', text: '' }
        doc.text = Array.from({ length: WORDS }, () => randomWord(r)).join(' ')
        if (n < 3) first.push(doc)
        await idx.add([doc])
      }
      await idx.idle()
      heap.push(retainedMB())
    }
    // 300 more messages hold 75,000 new words: about 35 MB of dictionary before the bound
    const growth = heap[2] - heap[0]
    expect(growth, `heap after 150, 300, 450 messages: ${heap.map(h => h.toFixed(1)).join(', ')} MB`).to.be.below(8)
    expect(idx.live.terms).to.be.at.most(DEFAULT_TUNING.liveTerms)
    expect(idx.segments.length).to.be.greaterThan(1)
    // nothing is lost: the first message's words still find it
    const word = first[1].text.split(' ')[7]
    const hits = idx.search(queryTerms(word), { limit: 5 })
    expect(hits.hits.map(h => h.n)).to.include(1)
    expect(idx.count).to.equal(450)
    await idx.close()
  })
})
