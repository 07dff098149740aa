// 35. Does upkeep help? (SPEC §26, docs/upkeep.md) The chat of upkeep-facts.ts played through the
// real plugin twice. Without upkeep, the notes are what the in-turn mind writes: scripted as a chat
// model does, it notes only what it is told directly when mentioned (a self-statement to the
// speaker's note, a claim to its subject's note naming who said it). With upkeep, the same mind
// and, after each day, an upkeep run whose rule-based model proposes every fact of each chunk the
// same way (review auto). Then each fact is looked for: in its person's note (its text on a line;
// a claim's line naming its author), and in the opening of a later turn of that person.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { personRel, personUrl } from '../src/people/people-path'
import { lastUserText, type RecordedRequest } from '../tests/support/fake-openai'
import { homeOf } from '../tests/support/faults'
import { Harness, call } from '../tests/support/harness'
import { upkeepOf } from '../tests/support/upkeep'
import type { Mode, Row } from './measure'
import { factChat, type ChatFact } from './upkeep-facts'
import { upkeepModel, type Billed } from './upkeep-model'

/** The line a fact becomes in its person's note: a claim names its author. */
const noted = (f: ChatFact) => f.subject === f.speaker ? `- ${f.text}\n` : `- ${f.speaker.name} (${f.speaker.uid}) says: ${f.text}\n`
const target = (f: ChatFact) => personUrl('mock', f.subject.uid)

interface Held { notes: number; misattributed: number; opening: number; proposed: number; requests: number }

/** The in-turn mind: a fact told to it in the waking message is written down; otherwise it finishes. */
function mind(facts: ChatFact[]) {
  const done = new Set<ChatFact>()
  return (req: RecordedRequest) => {
    const msgs = req.body.messages as any[]
    if (msgs.at(-1)?.role === 'tool') return { toolCalls: [call('finish', {})] }
    const last = lastUserText(req) ?? ''
    const f = facts.find(x => x.told && !done.has(x) && last.includes(x.text))
    if (!f) return { toolCalls: [call('finish', {})] }
    done.add(f)
    return { toolCalls: [call('write', { url: target(f), append: noted(f) })] }
  }
}

async function play(withUpkeep: boolean, dataDir: string): Promise<Held> {
  const { people, said, facts } = factChat()
  const byText = (text: string) => facts.find(f => text.includes(f.text))
  const billed: Billed[] = []
  // the 5 days are played within one real day: maxChanges (20 a day) would count them as one
  const h = await Harness.start({ dataDir, profile: { upkeep: { enabled: withUpkeep, review: 'auto', maxChanges: 100 } } })
  try {
    // what a note shown in the chunk already says is not proposed again
    h.server.fallback(upkeepModel((lines, first) => lines.flatMap(l => {
      const f = byText(l.text)
      return f && !first.includes(noted(f).trim()) ? [{ url: target(f), append: noted(f), reason: `${f.speaker.name} said so`, sources: [l.url] }] : []
    }), billed, mind(facts)))
    let proposed = 0
    for (let day = 0; day < 5; day++) {
      for (const s of said.filter(x => x.day === day)) {
        await h.client(s.who.uid, s.group.slice('group:'.length)).receive(s.text)
        await h.settled()
      }
      if (withUpkeep) proposed += (await (await upkeepOf(h)).run(`day ${day + 1}`)).proposed
    }
    const home = homeOf(h)
    const note = (f: ChatFact) => readFile(join(home, 'local', personRel('mock', f.subject.uid)), 'utf8').catch(() => '')
    let notes = 0
    let misattributed = 0
    for (const f of facts) {
      const lines = (await note(f)).split('\n').filter(l => l.includes(f.text))
      if (lines.some(l => f.subject === f.speaker || l.includes(f.speaker.name))) notes++
      else if (lines.length) misattributed++
    }
    // a later turn of each person: what its opening shows of their note
    let opening = 0
    for (const p of people) {
      const at = h.server.requests.length
      await h.client(p.uid, p.groups[0].slice('group:'.length)).receive('<at id="514"/> morning')
      await h.settled()
      const shown = JSON.stringify(h.server.requests[at]?.body.messages ?? [])
      opening += facts.filter(f => f.subject === p && shown.includes(JSON.stringify(noted(f).trim()).slice(1, -1))).length
    }
    return { notes, misattributed, opening, proposed, requests: billed.length }
  } finally {
    await h.stop()
  }
}

export async function upkeepHelps(mode: Mode): Promise<Row[]> {
  const without = await play(false, join(mode.tmp, 'upkeep-helps-without'))
  const withUp = await play(true, join(mode.tmp, 'upkeep-helps-with'))
  const n = factChat().facts.length
  const pc = (x: number) => 100 * x / n
  return [
    {
      benchmark: `35 does upkeep help? facts held in the notes, attributed right (${n} facts, 5 days)`, figure: pc(withUp.notes), unit: '%',
      baseline: pc(without.notes), baselineLabel: 'without upkeep: the in-turn mind\'s notes', ratio: withUp.notes / Math.max(without.notes, 1),
      note: `3 groups, 20 people, 40 self-statements and 20 claims, one in four said to the bot; misattributed: ${withUp.misattributed} `
        + `(without ${without.misattributed}); upkeep: ${withUp.requests} requests, ${withUp.proposed} proposals over 5 runs`,
    },
    {
      benchmark: '35 does upkeep help? facts shown in a later turn\'s opening', figure: pc(withUp.opening), unit: '%',
      baseline: pc(without.opening), baselineLabel: 'without upkeep', ratio: withUp.opening / Math.max(without.opening, 1),
      note: 'each person mentions the bot once after the 5 days; the opening shows the head of their note (SPEC §21)',
    },
  ]
}
