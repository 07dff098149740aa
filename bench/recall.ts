// 15. Recall (SPEC §17, docs/recall.md): how often a search finds the evidence of a question on a
// long synthetic chat (recall@5, recall@10), against plain BM25 over single messages in the same
// run; and the index at scale: indexing time and disk per message, heap while searching, search
// latency. Quick mode: 10,000 and 100,000 messages; --full: 10,000 and 1,000,000. Memory: the heap
// an open index keeps after messages whose every word is new, against the same messages from a
// small vocabulary (child-recall-words.ts).
import { join } from 'node:path'
import { child, type Mode, type Row } from './measure'
import { recallQuality } from './recall-quality'

export async function recall(mode: Mode): Promise<Row[]> {
  const rows: Row[] = []
  for (const { name, r } of await recallQuality(join(mode.tmp, 'recall'), 6000)) {
    const pc = (x: number) => 100 * x / r.questions
    const kinds = Object.entries(r.byKind).map(([k, v]) => `${k} ${v.at10}/${v.n} (plain ${v.base10})`).join(', ')
    rows.push(
      { benchmark: `15 recall@5, ${name} (${r.questions} questions)`, figure: pc(r.at5), unit: '%', baseline: pc(r.base5), baselineLabel: 'plain BM25, single messages', ratio: r.at5 / r.base5 },
      { benchmark: `15 recall@10, ${name} (${r.questions} questions)`, figure: pc(r.at10), unit: '%', baseline: pc(r.base10), baselineLabel: 'plain BM25, single messages', ratio: r.at10 / r.base10, note: `found in the top 10 by kind of question: ${kinds}` },
    )
  }
  const big = mode.full ? 1_000_000 : 100_000
  const small = await child('child-recall.ts', [join(mode.tmp, 'recall-10k'), '10000', '300'], ['--expose-gc'])
  const large = await child('child-recall.ts', [join(mode.tmp, 'recall-big'), String(big), '300'], ['--expose-gc'])
  const n = big.toLocaleString('en')
  rows.push(
    { benchmark: `15 indexing, time per message (${n} messages, merges included)`, figure: large.usPerMessage, unit: 'µs', note: `${(large.indexMs / 1000).toFixed(1)} s in all; ${large.segments} segments at the end` },
    { benchmark: `15 indexing, disk per message (${n} messages)`, figure: large.bytesPerMessage, unit: 'B', note: 'segments and live log: stored text, postings, dictionary, columns' },
    { benchmark: `15 heap while searching (${n} messages, highest heapUsed after a search)`, figure: large.heapPeakMB, unit: 'MB', baseline: large.heapBeforeMB, baselineLabel: 'index open, before searching', note: `RSS ${large.rssMB.toFixed(0)} MB; heap after GC ${large.heapAfterMB.toFixed(1)} MB` },
    { benchmark: '15 search latency p50, 10,000 messages', figure: small.p50, unit: 'ms', note: `p99 ${small.p99.toFixed(1)} ms; 300 three-word queries` },
    { benchmark: `15 search latency p50, ${n} messages`, figure: large.p50, unit: 'ms', ...(mode.full ? { target: '≤ 20 ms', pass: large.p50 <= 20 } : {}), note: `p99 ${large.p99.toFixed(1)} ms; 300 three-word queries` },
    {
      benchmark: `15 a message by its id (history:// URLs), ${n} messages`, figure: large.idP50, unit: 'ms',
      note: `p99 ${large.idP99.toFixed(2)} ms; an id no message has p50 ${large.missP50.toFixed(2)} ms; 300 ids; one dictionary lookup a segment`,
    },
    {
      benchmark: `15 a message by its id, index written before issue 38 (${n} messages read back)`, figure: large.scanMs, unit: 'ms',
      note: 'an id no message has, the worst case; once per id: the 1,024 ids last looked for are remembered',
    },
    await newWordsRow(mode),
  )
  return rows
}

/** SPEC §17, issue 37: every new word is a term of the live buffer; its memory must stay bounded. */
async function newWordsRow(mode: Mode): Promise<Row> {
  const [count, words] = mode.full ? [2000, 300] : [600, 300]
  const args = (kind: string) => [join(mode.tmp, `recall-words-${kind}`), String(count), String(words), kind]
  const fresh = await child('child-recall-words.ts', args('new'), ['--expose-gc'])
  const common = await child('child-recall-words.ts', args('common'), ['--expose-gc'])
  const all = (count * words).toLocaleString('en')
  return {
    benchmark: `15 heap kept by an open index after ${count} messages of ${words} new words each`, figure: fresh.retainedMB, unit: 'MB',
    baseline: common.retainedMB, baselineLabel: 'the same from 2,000 words', ratio: fresh.retainedMB / Math.max(common.retainedMB, 0.1),
    target: '≤ 10 MB', pass: fresh.retainedMB <= 10,
    note: `after GC; ${all} words; live buffer ${fresh.liveTerms} terms (baseline ${common.liveTerms}), ${fresh.segments} segments (baseline ${common.segments})`,
  }
}
