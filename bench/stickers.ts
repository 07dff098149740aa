// 18. The sticker library (SPEC §19, docs/stickers.md). A library of 200 labelled stickers
// (bench/sticker-labels.json: 40 feelings or replies × 5 animals, descriptions in English or
// Chinese, tags in both; tiny PNGs of distinct colours written at run time) in a real Runtime:
// (a) what offering 24 of them costs in the fixed part of every request (system prompt + tool
// declarations, estimated tokens) against stickers off, and that the part stays the same from turn
// to turn; (b) whether `search` puts a right sticker in its top 3 for 40 usage queries in Chinese
// and English; (c) what looking at the folder before a turn costs (informational).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider'
import type { Runtime } from '../src/runtime/runtime'
import { stickerUrl } from '../src/stickers/scheme'
import { stickersPart } from '../src/stickers/part'
import { tinyPng } from '../tests/support/tiny-png'
import { interleave, median, now, ROOT, type Mode, type Row } from './measure'
import { benchRuntime, directFact, turn, usage } from './runtime-setup'
import { recallPart } from '../src/recall/part'

const OFFER = 24
const TURNS = 3

interface Data {
  stickers: { name: string; description: string; tags: string[] }[]
  queries: { query: string; expect: string[] }[]
}

/** One request's fixed part as the provider gets it. */
interface Fixed { system: string; tools: string }

function recordingModel(out: Fixed[]): LanguageModelV3 {
  let id = 0
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate(o: LanguageModelV3CallOptions) {
      out.push({ system: String(o.prompt[0].content), tools: JSON.stringify(o.tools ?? []) })
      return {
        content: [{ type: 'tool-call' as const, toolCallId: `c${++id}`, toolName: 'finish', input: '{}' }],
        finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [],
      }
    },
    async doStream() {
      throw new Error('the bench model does not stream')
    },
  }
}

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]/g
/** Estimated tokens: a CJK character as a token (most tokenizers give fewer), other text at 4 characters a token. */
function tokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0
  return Math.round(cjk + (text.length - cjk) / 4)
}

async function setUp(dir: string, data: Data, stickers: boolean): Promise<{ runtime: Runtime; sent: Fixed[] }> {
  const folder = join(dir, 'library')
  if (stickers) {
    await mkdir(folder, { recursive: true })
    await Promise.all(data.stickers.map(async (s, i) => {
      await writeFile(join(folder, `${s.name}.png`), tinyPng(0x100000 + i * 997))
      await writeFile(join(folder, `${s.name}.json`), JSON.stringify({ description: s.description, tags: s.tags }))
    }))
  }
  const sent: Fixed[] = []
  const runtime = await benchRuntime({
    dataDir: join(dir, 'data'), model: recordingModel(sent),
    profile: { stickers: { enabled: stickers, dir: folder, offer: OFFER } },
  })
  return { runtime, sent }
}

export async function stickers(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'stickers')
  const data: Data = JSON.parse(await readFile(join(ROOT, 'bench', 'sticker-labels.json'), 'utf8'))
  const on = await setUp(join(dir, 'on'), data, true)
  const off = await setUp(join(dir, 'off'), data, false)
  const library = on.runtime.part(stickersPart)!.library
  const cold = now()
  await library.scan()
  const coldMs = now() - cold
  if (library.list().length !== data.stickers.length) throw new Error(`${library.list().length} stickers scanned, not ${data.stickers.length}`)
  for (let i = 0; i < TURNS; i++) {
    await turn(on.runtime, directFact(1, `message ${i}`))
    await turn(off.runtime, directFact(1, `message ${i}`))
  }
  const fixed = (f: Fixed) => tokens(f.system) + tokens(f.tools)
  const added = fixed(on.sent[0]) - fixed(off.sent[0])
  const addedChars = on.sent[0].system.length + on.sent[0].tools.length - off.sent[0].system.length - off.sent[0].tools.length
  const stable = on.sent.every(f => f.system === on.sent[0].system && f.tools === on.sent[0].tools)
  const section = on.sent[0].system.slice(on.sent[0].system.indexOf('## Stickers'))
  const offered = section.split('\n\n')[0].split('\n').filter(l => l.startsWith('- ')).length

  // (b) search: the right sticker among the first three hits
  const misses: string[] = []
  let rr = 0
  const searchMs: number[] = []
  for (const q of data.queries) {
    const t = now()
    const { hits } = await on.runtime.part(recallPart)!.recall.search('private:u1', q.query, 10)
    searchMs.push(now() - t)
    const want = new Set(q.expect.map(stickerUrl))
    const rank = hits.findIndex(h => want.has(h.url))
    if (rank >= 0) rr += 1 / (rank + 1)
    if (rank < 0 || rank > 2) misses.push(`"${q.query}" → ${hits.slice(0, 3).map(h => decodeURIComponent(h.url.replace('sticker://', ''))).join(', ') || 'nothing'}`)
  }
  const top3 = (data.queries.length - misses.length) / data.queries.length

  // (c) the look before a turn: one stat of the folder; every few seconds a stat of every file
  const reps = mode.full ? 2000 : 400
  const looks = await interleave({
    folder: () => library.prepare(),
    everyFile: () => library.scan(),
  }, reps, 20)
  await Promise.all([on.runtime.stop(), off.runtime.stop()])
  const us = (ms: number) => Math.round(ms * 1000)
  return [
    {
      benchmark: `18 stickers: fixed part with ${OFFER} stickers offered (est. tokens added)`, figure: added, unit: 'tokens',
      target: '≤ +600', pass: added <= 600,
      note: `${addedChars} characters more (the [stickers] line, the section of ${offered} stickers); stickers off: ${fixed(off.sent[0])} tokens; `
        + `a CJK character counted as a token, other text 4 characters a token; ${library.list().length} stickers in the library`,
    },
    {
      benchmark: `18 stickers: the fixed part unchanged over ${TURNS} turns`, figure: stable ? 1 : 0, unit: '',
      target: '= 1', pass: stable, note: 'system prompt and tool declarations byte for byte (SPEC §16)',
    },
    {
      benchmark: `18 stickers: search, a right sticker in the top 3 (${data.queries.length} queries, ${data.stickers.length} stickers)`,
      figure: Math.round(top3 * 1000) / 10, unit: '%', target: '≥ 90%', pass: top3 >= 0.9,
      note: `mean reciprocal rank ${(rr / data.queries.length).toFixed(3)}; search p50 ${median(searchMs).toFixed(2)} ms; `
        + (misses.length ? `missed: ${misses.join('; ')}` : 'no misses'),
    },
    {
      benchmark: '18 stickers: the look before a turn (folder unchanged)', figure: us(median(looks.folder)), unit: 'µs',
      note: `one stat of the folder; every ${2} s a stat of every file instead: ${us(median(looks.everyFile))} µs (${data.stickers.length * 2 + 1} files); `
        + `the first scan (reading and hashing ${data.stickers.length} images, reading their labels) ${coldMs.toFixed(1)} ms`,
    },
  ]
}
