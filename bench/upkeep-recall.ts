// 34. Notes must not make search worse (SPEC §26, §17): bench 15's synthetic groups (recall-data.ts:
// English 6,000 messages and 80 questions, Chinese 3,000 and 40) stored as two groups of one
// runtime, searched through the real plugin's recall (`search` as a turn of the group calls it,
// notes included) before and after one upkeep run whose scripted model appends each fact of a chunk
// (the questions' evidence messages) to its speaker's note, review auto. A question is found at 10
// when one of the first 10 hits is an evidence message, or a note line holding its text.
import { readFile, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { chatOf } from '../src/contract/turn-scope'
import { recallPart } from '../src/recall/part'
import { parseFileUrl } from '../src/resources/file-url'
import { runtimeHome } from '../src/runtime/runtime'
import { STATE_FILE } from '../src/upkeep/state'
import { Harness } from '../tests/support/harness'
import { runtimeOf, upkeepOf } from '../tests/support/upkeep'
import type { Mode, Row } from './measure'
import { chineseGroup, englishGroup, type Conversation } from './recall-data'
import { writeDay, type DayMessage } from './upkeep-day'
import { upkeepModel, type Billed } from './upkeep-model'

const uidOf = (who: string) => `p${[...who].map(c => c.codePointAt(0)!.toString(36)).join('')}`

/** A conversation as stored: message i has id i + 1. */
const stored = (c: Conversation): DayMessage[] => c.messages.map((m, i) => ({ id: String(i + 1), at: m.at, uid: uidOf(m.who), name: m.who, text: m.text }))

type Search = (key: string, query: string) => Promise<{ url: string }[]>

/** How many of the questions have an evidence message, or a note line holding its text, among the first 10 hits. */
async function found10(search: Search, key: string, c: Conversation, local: string): Promise<number> {
  let n = 0
  for (const q of c.questions) {
    const ids = new Set(q.evidence.map(i => `/${i + 1}`))
    const texts = q.evidence.map(i => c.messages[i].text)
    let hit = false
    for (const h of await search(key, q.query)) {
      if (h.url.startsWith('history://') && ids.has(h.url.slice(h.url.lastIndexOf('/')))) hit = true
      if (h.url.startsWith('local://')) {
        const u = parseFileUrl(h.url)
        const line = (await readFile(join(local, ...u.segments), 'utf8')).split('\n')[(u.selectors[0] as any).start - 1] ?? ''
        if (texts.some(t => line.includes(t))) hit = true
      }
      if (hit) break
    }
    n += hit ? 1 : 0
  }
  return n
}

export async function upkeepRecall(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'upkeep-recall')
  const home = runtimeHome(dir, 'neko', 'mock:514')
  const groups: [string, Conversation][] = [['group:en', englishGroup(6000)], ['group:zh', chineseGroup(3000)]]
  for (const [key, c] of groups) await writeDay(home, key, stored(c))
  // upkeep looks at the whole history, not the day before its first start; it ran today (no missed run at start)
  await mkdir(join(home, 'upkeep'), { recursive: true })
  await writeFile(join(home, STATE_FILE), JSON.stringify({ since: 0, lastRun: Date.now(), through: {}, runs: [] }))
  const facts = new Set(groups.flatMap(([, c]) => c.questions.flatMap(q => q.evidence.map(i => c.messages[i].text))))
  const billed: Billed[] = []
  const h = await Harness.start({ dataDir: dir, profile: { upkeep: { enabled: true, review: 'auto', maxChanges: 1000, maxTokens: 2_000_000 } } })
  try {
    h.server.fallback(upkeepModel(lines => lines.filter(l => facts.has(l.text) && l.note).map(l => ({
      url: l.note, append: `- ${l.text}\n`, reason: `${l.name} said so`, sources: [l.url],
    })), billed))
    const rt = await runtimeOf(h)
    const recall = rt.part(recallPart)!.recall
    for (const [key] of groups) await (await recall.index(key)).idle()
    const search: Search = async (key, query) => (await recall.search(key, query, 10, undefined, { conversation: key, chat: chatOf(key) })).hits
    const local = join(home, 'local')
    const before = await Promise.all(groups.map(([key, c]) => found10(search, key, c, local)))
    const report = await (await upkeepOf(h)).run('bench')
    const after = await Promise.all(groups.map(([key, c]) => found10(search, key, c, local)))
    return groups.map(([, c], i) => {
      const pc = (x: number) => 100 * x / c.questions.length
      return {
        benchmark: `34 recall@10 after upkeep, ${c.name} (${c.questions.length} questions)`, figure: pc(after[i]), unit: '%',
        baseline: pc(before[i]), baselineLabel: 'before upkeep, no notes', ratio: after[i] / before[i], target: '≥ before', pass: after[i] >= before[i],
        note: i ? undefined : `one run over both groups: ${report.requests} requests, ${report.proposed} proposals, ${report.applied} applied `
          + `(each question's evidence appended to its speaker's note, "- <the message>"); ${facts.size} facts`,
      }
    })
  } finally {
    await h.stop()
  }
}
