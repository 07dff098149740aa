// What the upkeep specs share: a Harness whose profile runs upkeep, messages that become the
// history it reads, and scripted upkeep steps built from what its first request shows.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { safeName } from '../../src/util/safe-name'
import type { RecordedRequest } from './fakes/scripted-server'
import { messagesOf } from './fake-openai'
import { Harness, call, type HarnessOptions } from './harness'
import { upkeepPart } from '../../src/upkeep/part'
import type { Upkeep } from '../../src/upkeep/upkeep'

export const FINISH = { toolCalls: [call('finish', {})] }

/** A harness whose profile runs upkeep (`upkeep` merged into its section); the bot finishes every turn. */
export async function upkeepRig(upkeep: Record<string, unknown> = {}, o: HarnessOptions = {}): Promise<Harness> {
  const h = await Harness.start({ ...o, profile: { upkeep: { enabled: true, ...upkeep }, ...o.profile } })
  return h
}

/** People write (`[user, channel, text]`; no channel: a private chat); a turn one wakes finishes without a word. */
export async function chat(h: Harness, lines: [string, string | undefined, string][]): Promise<void> {
  h.server.fallback(FINISH)
  try {
    for (const [user, channel, text] of lines) {
      await h.client(user, channel).receive(text)
      await h.settled()
    }
  } finally {
    h.server.fallback(undefined)
  }
}

export async function upkeepOf(h: Harness): Promise<Upkeep> {
  const [rt] = await h.app.kotodama.list()
  const part = rt.part(upkeepPart)
  if (!part) throw new Error('upkeep is off')
  return part.upkeep
}

/** The first user message of an upkeep request: the head, the people, the messages. */
export function firstText(req: RecordedRequest): string {
  const first = messagesOf(req).find(m => m.role === 'user')
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content)
}

/** Whether a request is an upkeep run's (its first message is a chunk's head). */
export const isUpkeep = (req: RecordedRequest) => firstText(req).startsWith('[upkeep of ')

/** The history:// URL of the message whose line holds `text`, as the request shows it. */
export function sourceOf(req: RecordedRequest, text: string): string {
  const first = firstText(req)
  const own = /Message #id is (\S+)\/id\]/.exec(first)?.[1]
  const line = first.split('\n').find(l => l.includes(text) && l.startsWith('#'))
  const id = line && /^#(\S+) /.exec(line)?.[1]
  if (!own || !id) throw new Error(`no message "${text}" in:\n${first}`)
  return `${own}/${id}`
}

/** A step of proposals made from the request it answers. */
export const proposing = (...make: ((req: RecordedRequest) => Record<string, unknown>)[]) =>
  (req: RecordedRequest) => ({ toolCalls: make.map(m => call('propose', m(req))) })

/** A group's history written straight to its file before the runtime starts: `n` messages, `every` ms apart, ending now. */
export async function writeHistory(home: string, channel: string, n: number, text: (i: number) => string, every = 1000): Promise<void> {
  const end = Date.now()
  const lines: string[] = []
  for (let i = 0; i < n; i++) {
    const at = end - (n - i) * every
    const user = `u${i % 50}`
    lines.push(JSON.stringify({ type: 'fact', at, fact: {
      id: String(i + 1), at, bot: 'mock:514', channel, guildId: channel.slice(6), direct: false, user: { id: user, name: user },
      content: text(i), mentionsBot: false, quotesBot: false,
    } }))
  }
  await mkdir(join(home, 'conversations'), { recursive: true })
  await writeFile(join(home, 'conversations', `${safeName(channel)}.jsonl`), lines.join('\n') + '\n')
}

/** The runtime of the harness's one profile on its bot, started without a message. */
export function runtimeOf(h: Harness) {
  return h.app.kotodama.runtime(h.app.kotodama.profiles[0], `mock:${h.selfId}`)
}
