// The newest messages of a conversation's index, in memory until there are enough of them for a
// segment (docs/recall.md). Their text is also in the live log on disk, from which a restart
// builds this buffer again. It answers searches the way a segment does (`Source`). Its dictionary
// is what grows with every new word, so it is kept small: a posting is one number, a term held by
// one message has no list, and the index counts its terms and text to turn it into a segment in time.
import { analyze } from './analyze'
import { lengthCode } from './codec'
import type { RecallDoc } from './docs'
import type { Source, Speaker } from './source'
import { idTerm } from './id-term'

/** a posting in one number: the message (local) × 2^16 + how often the term occurs in it */
const TF = 0x10000
/** one message's posting, or the postings of several in message order */
type Postings = number | number[]

const unpack = (p: Postings): number[] => typeof p === 'number' ? [p] : p

export class LiveBuffer implements Source {
  readonly docs: RecallDoc[] = []
  private postings = new Map<string, Postings>()
  /** platform message id → the messages with it (local numbers, oldest first): a segment's id terms (id-term.ts) */
  private ids = new Map<string, number | number[]>()
  readonly lens: number[] = []
  readonly ats: number[] = []
  readonly who: number[] = []
  readonly speakers: Speaker[] = []
  private speakerIndex = new Map<string, number>()
  totalLen = 0
  /** the messages' text, in UTF-16 units */
  chars = 0

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
      const posting = local * TF + Math.min(tf, TF - 1)
      const p = this.postings.get(term)
      if (p === undefined) this.postings.set(term, posting)
      else if (typeof p === 'number') this.postings.set(term, [p, posting])
      else p.push(posting)
    }
    let s = this.speakerIndex.get(doc.uid)
    if (s === undefined) {
      s = this.speakers.length
      this.speakerIndex.set(doc.uid, s)
      this.speakers.push({ uid: doc.uid, name: doc.who, n: 0 })
    }
    if (doc.id) this.addId(doc.id, local)
    const speaker = this.speakers[s]
    speaker.n++
    speaker.name = doc.who
    this.docs.push(doc)
    this.lens.push(len)
    this.ats.push(Math.floor(doc.at / 1000))
    this.who.push(s)
    this.totalLen += len
    this.chars += doc.text.length
  }

  private addId(id: string, local: number): void {
    const had = this.ids.get(id)
    if (had === undefined) this.ids.set(id, local)
    else if (typeof had === 'number') this.ids.set(id, [had, local])
    else had.push(local)
  }

  /** The newest message (local number) whose platform id is `id`. */
  newestWithId(id: string): number | undefined {
    const had = this.ids.get(id)
    return typeof had === 'number' ? had : had?.at(-1)
  }

  /** Each message id with its messages (local numbers, in order), as a segment writes them. */
  idPostings(): [string, number[]][] {
    return [...this.ids].map(([id, p]) => [idTerm(id), typeof p === 'number' ? [p] : p])
  }

  /** Distinct terms held (words: the ids are bounded by the messages). */
  get terms(): number {
    return this.postings.size
  }

  /** The distinct terms, in no order. */
  termList(): string[] {
    return [...this.postings.keys()]
  }

  /** A term's postings in message order: local message numbers and counts. */
  postingsOf(term: string): { docs: number[]; tfs: number[] } | undefined {
    const p = this.postings.get(term)
    if (p === undefined) return undefined
    const packed = unpack(p)
    return { docs: packed.map(x => Math.floor(x / TF)), tfs: packed.map(x => x % TF) }
  }

  find(term: string) {
    const p = this.postings.get(term)
    return p === undefined ? undefined : { df: typeof p === 'number' ? 1 : p.length, handle: p }
  }

  decode(handle: unknown, docs: Int32Array, tfs: Uint16Array, lens: Uint8Array, at: number): void {
    const packed = unpack(handle as Postings)
    for (let i = 0; i < packed.length; i++) {
      const doc = Math.floor(packed[i] / TF)
      docs[at + i] = this.from + doc
      tfs[at + i] = packed[i] % TF
      lens[at + i] = lengthCode(this.lens[doc])
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
