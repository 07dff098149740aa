// The newest messages of a conversation's index, in memory until there are enough of them for a
// segment (docs/recall.md). Their text is also in the live log on disk, from which a restart
// builds this buffer again. It answers searches the way a segment does (`Source`).
import { analyze } from './analyze'
import { lengthCode } from './codec'
import type { RecallDoc } from './docs'
import type { Source, Speaker } from './source'

interface LivePostings {
  docs: number[]
  tfs: number[]
}

export class LiveBuffer implements Source {
  readonly docs: RecallDoc[] = []
  readonly postings = new Map<string, LivePostings>()
  readonly lens: number[] = []
  readonly ats: number[] = []
  readonly who: number[] = []
  readonly speakers: Speaker[] = []
  private speakerIndex = new Map<string, number>()
  totalLen = 0

  constructor(readonly from: number) {}

  get count(): number {
    return this.docs.length
  }

  add(doc: RecallDoc): void {
    const local = this.docs.length
    const counts = new Map<string, number>()
    let len = 0
    for (const t of analyze(doc.text)) {
      counts.set(t.term, (counts.get(t.term) ?? 0) + 1)
      len++
    }
    for (const [term, tf] of counts) {
      let p = this.postings.get(term)
      if (!p) this.postings.set(term, p = { docs: [], tfs: [] })
      p.docs.push(local)
      p.tfs.push(Math.min(tf, 0xffff))
    }
    let s = this.speakerIndex.get(doc.uid)
    if (s === undefined) {
      s = this.speakers.length
      this.speakerIndex.set(doc.uid, s)
      this.speakers.push({ uid: doc.uid, name: doc.who, n: 0 })
    }
    const speaker = this.speakers[s]
    speaker.n++
    speaker.name = doc.who
    this.docs.push(doc)
    this.lens.push(len)
    this.ats.push(Math.floor(doc.at / 1000))
    this.who.push(s)
    this.totalLen += len
  }

  find(term: string) {
    const p = this.postings.get(term)
    return p ? { df: p.docs.length, handle: p } : undefined
  }

  decode(handle: unknown, docs: Int32Array, tfs: Uint16Array, lens: Uint8Array, at: number): void {
    const p = handle as LivePostings
    for (let i = 0; i < p.docs.length; i++) {
      docs[at + i] = this.from + p.docs[i]
      tfs[at + i] = p.tfs[i]
      lens[at + i] = lengthCode(this.lens[p.docs[i]])
    }
  }

  column(name: 'at' | 'who', a: number, b: number): Uint32Array {
    return Uint32Array.from((name === 'at' ? this.ats : this.who).slice(a, b))
  }

  doc(local: number): RecallDoc {
    return this.docs[local]
  }

  release(): void {}
}
