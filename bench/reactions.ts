// 25. Reactions people add (SPEC §23): 100 reactions in a minute by 40 people to 5 of the bot's messages of
// one group, handed to the presence part's gather as the edge does, the window then closed. Model calls
// (goal 0) and facts stored (goal ≤ one per message reacted to); the time per reaction against a plain
// group message's ingest (runtime.receive of a non-waking fact), both on the same runtime, interleaved rounds.
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Fact } from '../src/history/entries'
import { presencePart } from '../src/presence/part'
import { median, now, type Mode, type Row } from './measure'
import { benchRuntime, BOT, scriptedModel } from './runtime-setup'

const REACTIONS = 100
const MESSAGES = 5
const ROUNDS = 5

export async function reactions(mode: Mode): Promise<Row[]> {
  const dir = await mkdtemp(join(mode.tmp, 'reactions-'))
  let calls = 0
  const runtime = await benchRuntime({ dataDir: dir, model: scriptedModel(() => { calls++; return [] }) })
  const gather = runtime.part(presencePart)!.reactions
  const perReaction: number[] = []
  const perMessage: number[] = []
  let facts = 0
  let n = 0
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const channel = `group:${round}`
      const key = runtime.conversationKey(channel)
      // the conversation loaded first, as a group that speaks is
      await runtime.receive(plain(channel, ++n))
      let t = now()
      for (let i = 0; i < REACTIONS; i++) {
        gather.add({ where: { bot: BOT, channel, direct: false }, to: `m${i % MESSAGES}`, user: { id: `u${i % 40}`, name: `u${i % 40}` },
          emoji: i % 3 ? '👍' : '❤️', count: 1, at: Date.now() })
      }
      await gather.flush(key)
      perReaction.push((now() - t) / REACTIONS)
      t = now()
      for (let i = 0; i < REACTIONS; i++) await runtime.receive(plain(channel, ++n))
      perMessage.push((now() - t) / REACTIONS)
      await runtime.written()
      facts += (await runtime.conversation(key)).entries.filter(e => e.type === 'fact' && e.fact.notice === 'reaction').length
    }
  } finally {
    await runtime.stop()
    await rm(dir, { recursive: true, force: true })
  }
  const reaction = median(perReaction)
  const message = median(perMessage)
  return [
    { benchmark: `100 reactions in a minute: model calls`, figure: calls, unit: 'calls', target: '0', pass: calls === 0 },
    { benchmark: `100 reactions to ${MESSAGES} messages: facts stored per round`, figure: facts / ROUNDS, unit: 'facts', target: `≤ ${MESSAGES}`, pass: facts / ROUNDS <= MESSAGES },
    { benchmark: 'time per reaction (gathered, then stored)', figure: reaction, unit: 'ms', baseline: message, baselineLabel: 'a plain message ingest', ratio: reaction / message, target: '≤ a message', pass: reaction <= message },
  ]
}

function plain(channel: string, n: number): Fact {
  return { id: `p${n}`, at: Date.now(), bot: BOT, channel, direct: false, user: { id: 'u1', name: 'U' }, content: `message ${n}` }
}
