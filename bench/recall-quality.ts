// The quality half of bench 14: recall@5 and recall@10 of the recall index on the synthetic chats
// of recall-data.ts, against plain BM25 over single messages (recall-baseline.ts) in the same run.
// A question counts as found at k when one of its evidence messages is among the first k hits.
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { queryTerms } from '../src/recall/analyze'
import { ConvIndex } from '../src/recall/conv-index'
import { queryDates } from '../src/recall/dates'
import type { RecallDoc } from '../src/recall/docs'
import { PlainBm25 } from './recall-baseline'
import { chineseGroup, englishGroup, type Conversation } from './recall-data'

const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error }

export interface Recalls {
  questions: number
  at5: number
  at10: number
  base5: number
  base10: number
  byKind: Record<string, { n: number; at10: number; base10: number }>
}

export async function measureRecall(dir: string, conv: Conversation): Promise<Recalls> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const idx = await ConvIndex.open(dir, quiet)
  const docs: RecallDoc[] = conv.messages.map((m, i) => ({ k: `f:g:${i}`, id: String(i), at: m.at, who: m.who, uid: m.who, ch: 'group:g', text: m.text }))
  for (let i = 0; i < docs.length; i += 500) await idx.add(docs.slice(i, i + 500))
  await idx.idle()
  const base = new PlainBm25()
  for (const m of conv.messages) base.add(m.text)
  const now = conv.messages.at(-1)!.at
  const out: Recalls = { questions: conv.questions.length, at5: 0, at10: 0, base5: 0, base10: 0, byKind: {} }
  for (const q of conv.questions) {
    const ours = idx.search(queryTerms(q.query), { limit: 10, dates: queryDates(q.query, now) }).hits.map(h => h.n)
    const theirs = base.search(q.query, 10)
    const hit = (list: number[], k: number) => list.slice(0, k).some(n => q.evidence.includes(n)) ? 1 : 0
    out.at5 += hit(ours, 5)
    out.at10 += hit(ours, 10)
    out.base5 += hit(theirs, 5)
    out.base10 += hit(theirs, 10)
    const kind = out.byKind[q.kind] ??= { n: 0, at10: 0, base10: 0 }
    kind.n++
    kind.at10 += hit(ours, 10)
    kind.base10 += hit(theirs, 10)
  }
  await idx.close()
  return out
}

export async function recallQuality(tmp: string, messages: number): Promise<{ name: string; r: Recalls }[]> {
  const convs = [englishGroup(messages), chineseGroup(Math.round(messages / 2))]
  const out: { name: string; r: Recalls }[] = []
  for (const [i, c] of convs.entries()) out.push({ name: c.name, r: await measureRecall(join(tmp, `quality-${i}`), c) })
  return out
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 6000)
  recallQuality(process.argv[3] ?? '/tmp/recall-quality', n).then(rs => {
    for (const { name, r } of rs) {
      const pc = (x: number) => (100 * x / r.questions).toFixed(1) + '%'
      console.log(`${name}: ${r.questions} questions; recall@5 ${pc(r.at5)} (plain ${pc(r.base5)}), recall@10 ${pc(r.at10)} (plain ${pc(r.base10)})`)
      for (const [k, v] of Object.entries(r.byKind)) console.log(`  ${k}: ${v.n} q, @10 ${v.at10} vs plain ${v.base10}`)
    }
  })
}
