// 33. What one upkeep costs (SPEC §26): a busy group's day (upkeep-day.ts: 1,000 messages, 30
// people, 10 of them with a note already) read by one upkeep run through the real plugin (Harness:
// Koishi, plugin-mock, recall's index, memory's writer, review auto), the model scripted to propose
// the day's facts of each chunk and end (upkeep-model.ts). Prompt tokens are Qwen3's count of what
// the requests held; the cache-read share is the part of each request repeating the previous
// request's prefix; the cost is at DeepSeek's list price for deepseek-chat (api-docs.deepseek.com,
// "Models & Pricing", USD: input $0.07 per million on a cache hit, $0.27 on a miss, output $1.10).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { personRel } from '../src/people/people-path'
import { runtimeHome } from '../src/runtime/runtime'
import { Harness } from '../tests/support/harness'
import { runtimeOf, upkeepOf } from '../tests/support/upkeep'
import type { Mode, Row } from './measure'
import { busyDay, writeDay } from './upkeep-day'
import { upkeepModel, type Billed } from './upkeep-model'

/** USD per million tokens: deepseek-chat's list price */
export const PRICE = { hit: 0.07, miss: 0.27, output: 1.1 }
const GOAL = 30_000

export async function upkeepCost(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'upkeep-cost')
  const home = runtimeHome(dir, 'neko', 'mock:514')
  const day = busyDay(Date.now())
  await writeDay(home, 'group:busy', day)
  // a group some of whose people the mind knows already: their notes open each chunk
  const people = [...new Map(day.map(m => [m.uid, m.name])).entries()].slice(0, 10)
  for (const [uid, name] of people) {
    const file = join(home, 'local', personRel('mock', uid))
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, `# ${name}\n- talks about games and food most evenings\n- asked me to remember their cat's name is 团子\n`)
  }
  const facts = new Set(day.filter(m => m.fact).map(m => m.text))
  const billed: Billed[] = []
  const h = await Harness.start({ dataDir: dir, profile: { upkeep: { enabled: true, review: 'auto', maxChanges: 100 } } })
  try {
    h.server.fallback(upkeepModel(lines => lines.filter(l => facts.has(l.text) && l.note).map(l => ({
      url: l.note, append: `- ${l.text}\n`, reason: `${l.name} said so`, sources: [l.url],
    })), billed))
    await runtimeOf(h)
    const report = await (await upkeepOf(h)).run('bench')
    const tokens = billed.reduce((a, b) => a + b.tokens, 0)
    const cached = billed.reduce((a, b) => a + b.cached, 0)
    const output = billed.reduce((a, b) => a + b.output, 0)
    const per1000 = tokens * 1000 / day.length
    const cost = ((tokens - cached) * PRICE.miss + cached * PRICE.hit + output * PRICE.output) / 1e6
    const sum = (k: keyof Billed['parts']) => billed.reduce((a, b) => a + b.parts[k], 0)
    const parts = `tool declarations ${sum('tools')}, system prompt ${sum('system')}, the chunks' first messages ${sum('first')}, later steps ${sum('rest')}`
    const share = cached / tokens
    return [
      {
        benchmark: '33 upkeep of a busy group\'s day: prompt tokens per 1,000 messages (Qwen3)', figure: Math.round(per1000), unit: 'tokens',
        target: `≤ ${GOAL.toLocaleString('en')}`, pass: per1000 <= GOAL,
        note: `${day.length} messages of 30 people, ${billed.length} requests, ${report.proposed} proposals (${report.applied} applied, ${facts.size} facts said); ${parts}; `
          + `the run's own count (the fake bills the same tokens) ${report.promptTokens}`,
      },
      {
        benchmark: '33 upkeep of a busy group\'s day: share read from the prompt cache', figure: share, unit: '',
        target: '> 0.5 (most)', pass: share > 0.5,
        note: `${cached} of ${tokens} tokens repeat the previous request's prefix (tool declarations and the system prompt, shared by every chunk); `
          + 'each chunk is a context of its own, so its messages are read once, never from the cache',
      },
      {
        benchmark: '33 upkeep of a busy group\'s day: cost at deepseek-chat\'s price', figure: cost, unit: 'USD',
        note: `input $${PRICE.miss}/M on a miss, $${PRICE.hit}/M on a hit, output $${PRICE.output}/M (${output} output tokens); `
          + `the same without any cache hit $${((tokens * PRICE.miss + output * PRICE.output) / 1e6).toFixed(5)}`,
      },
    ]
  } finally {
    await h.stop()
  }
}
