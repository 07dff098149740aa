// 12. How much of each model request repeats the previous request's prefix (SPEC §16): what a
// server's prompt cache can reuse. A scripted group chat drives a real Runtime whose in-process
// model records every request; the same chat runs twice, in the new layout (a clock-free system
// prompt, the history trimmed in blocks) and in the layout before it (a minute clock in the system
// prompt, a window that slides: trimTo 1). Once with small limits (300 messages), once with the
// default ones (2,000 messages, informational). docs/cost.md explains the figures.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider'
import { formatTime } from '../src/history/render-facts'
import { zoneName } from '../src/util/day'
import { systemClock, type Clock } from '../src/util/clock'
import type { Fact } from '../src/history/entries'
import type { Runtime } from '../src/runtime/runtime'
import { platformOf } from '../src/claims/bot-id'
import type { Mode, Row } from './measure'
import { seededRandom } from './seeded-random'
import { benchRuntime, BOT, turn, usage } from './runtime-setup'
import { qwen3Tokens } from './tokens'
import BEFORE_38 from './baselines/fixed-part-before-issue-38.json'

export const MESSAGES = 300
/**
 * the default limits (200 messages, 60,000 characters) scaled down by 10/3, so the window of a
 * 300-message chat fills many times (16 cuts); HARSH (by 5 and 7.5) cuts every few requests
 */
export const CONTEXT = { maxMessages: 60, maxChars: 18_000 }
const HARSH = { maxMessages: 40, maxChars: 8000 }
/** at the default limits a longer chat fills the window as often */
const DEFAULT_CHAT = 2000
const DEFAULT_CONTEXT = { maxMessages: 200, maxChars: 60_000 }

export interface Chat { messages: number; context: typeof CONTEXT }
export const NO_TYPING = { baseDelay: 0, charPerSecond: 1e6, minDelay: 0, maxDelay: 0, jitter: 0 }
export const SELF = BOT.slice(BOT.indexOf(':') + 1)

/** One request as the provider would send it, in order: tool declarations, system prompt, messages. */
interface Sent { tools: string; system: string; history: string; at: number }

const random = seededRandom

const WORDS = 'the a to and of is it you that in was for on are with as I his they be at one have this from or had by not word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find'.split(' ')

function text(rnd: () => number, chars: number): string {
  let s = ''
  while (s.length < chars) s += (s ? ' ' : '') + WORDS[Math.floor(rnd() * WORDS.length)]
  return s.slice(0, chars)
}

export interface Line { user: number; content: string; wakes: boolean; gapMs: number; read?: string; reply: string }

/** The chat: people's lines of 10–200 characters (one in twenty up to 1,200), a mention every few. */
export function script(messages: number): { lines: Line[]; pages: Map<string, string> } {
  const rnd = random(12)
  const pages = new Map<string, string>()
  const lines: Line[] = []
  for (let i = 0; i < messages; i++) {
    const long = rnd() < 0.05
    const size = long ? 200 + Math.floor(rnd() * 1000) : 10 + Math.floor(rnd() * 190)
    const wakes = rnd() < 0.28
    let read: string | undefined
    // some turns read a page first: a tool result of a few hundred to a few thousand characters
    if (wakes && rnd() < 0.3) {
      read = `local://pages/p${i}.txt`
      pages.set(`p${i}.txt`, text(rnd, 300 + Math.floor(rnd() * 2700)))
    }
    const body = text(rnd, size)
    lines.push({
      user: 1 + Math.floor(rnd() * 6), content: wakes ? `<at id="${SELF}"/> ${body}` : body, wakes,
      gapMs: 5_000 + Math.floor(rnd() * 30_000), read, reply: text(rnd, 20 + Math.floor(rnd() * 130)),
    })
  }
  return { lines, pages }
}

/** A model that records each request and answers from the script: read the turn's page, then speak. */
function recordingModel(clock: Clock, plan: { line?: Line }, out: Sent[]): LanguageModelV3 {
  let id = 0
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate(o: LanguageModelV3CallOptions) {
      const [system, ...messages] = o.prompt
      out.push({ tools: JSON.stringify(o.tools ?? []), system: String(system.content), history: JSON.stringify(messages), at: clock.now() })
      const line = plan.line!
      const readDone = messages.at(-1)?.role === 'tool'
      const call: LanguageModelV3Content = line.read && !readDone
        ? { type: 'tool-call', toolCallId: `c${++id}`, toolName: 'read', input: JSON.stringify({ url: line.read }) }
        : { type: 'tool-call', toolCallId: `c${++id}`, toolName: 'send_message', input: JSON.stringify({ messages: [line.reply] }) }
      return { content: [call], finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [] }
    },
    async doStream() {
      throw new Error('the bench model does not stream')
    },
  }
}

/** What plays a chat: its length and limits, and the model (made with the chat's clock and the plan of the line now played). */
export interface ChatPlay {
  dir: string
  chat: Chat
  trimTo: number
  /** a note for each person of the chat (SPEC §21): the turns open with the present people's */
  notes?: boolean
  model(clock: Clock, plan: { line?: Line }): LanguageModelV3 | Promise<LanguageModelV3>
}

/** Plays the scripted chat through a real Runtime, one turn a waking line; `after` reads the runtime before it stops. */
export async function playChat<T>(o: ChatPlay, after: (runtime: Runtime) => T | Promise<T>): Promise<T> {
  const { lines, pages } = script(o.chat.messages)
  let simulated = Date.UTC(2026, 11, 1, 9, 0, 0)
  // the chat's own time; timers (none fire here) stay real
  const clock: Clock = { ...systemClock, now: () => simulated }
  const plan: { line?: Line } = {}
  const runtime = await benchRuntime({
    dataDir: o.dir, model: await o.model(clock, plan), typing: NO_TYPING, clock,
    profile: { context: { ...o.chat.context, trimTo: o.trimTo } },
  })
  try {
    await mkdir(join(runtime.home, 'local', 'pages'), { recursive: true })
    for (const [name, page] of pages) await writeFile(join(runtime.home, 'local', 'pages', name), page)
    if (o.notes) {
      const dir = join(runtime.home, 'local', 'memory', 'people', platformOf(BOT))
      await mkdir(dir, { recursive: true })
      for (let u = 1; u <= 6; u++) await writeFile(join(dir, `u${u}.md`), `Person ${u}: ${text(random(u), 300)}\n`)
    }
    let n = 0
    for (const line of lines) {
      simulated += line.gapMs
      plan.line = line
      const fact: Fact = {
        id: `m${++n}`, at: simulated, bot: BOT, channel: 'group:bench', guildId: 'bench', direct: false,
        user: { id: `u${line.user}`, name: `Person ${line.user}` }, content: line.content, mentionsBot: line.wakes,
      }
      await turn(runtime, fact)
    }
    await runtime.written()
    return await after(runtime)
  } finally {
    await runtime.stop()
  }
}

/** Runs the chat in one layout; the requests the model received. */
async function run(dir: string, chat: Chat, trimTo: number, notes = false): Promise<Sent[]> {
  const sent: Sent[] = []
  return playChat({ dir, chat, trimTo, notes, model: (clock, plan) => recordingModel(clock, plan, sent) }, () => sent)
}

/** The layout before SPEC §16: the system prompt ended with the minute, the history had no turn lines. */
function oldLayout(s: Sent): Sent {
  const system = s.system.replace(/\n\nYou are bot /, `\n\nNow: ${formatTime(s.at)} (${zoneName('')}). You are bot `)
  return { ...s, system, history: s.history.replace(/\\n\[now: [^\]]*\]/g, '') }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** The share of characters that repeat the previous request's prefix, over the requests after `from`. */
function share(sent: Sent[], from: number, part: (s: Sent) => string): { weighted: number; mean: number } {
  let reused = 0
  let total = 0
  let sum = 0
  const start = Math.max(from, 1)
  for (let i = start; i < sent.length; i++) {
    const [before, now] = [part(sent[i - 1]), part(sent[i])]
    const common = commonPrefix(before, now)
    reused += common
    total += now.length
    sum += common / now.length
  }
  return { weighted: reused / total, mean: sum / (sent.length - start) }
}

/** The first request whose history does not extend the previous one's: the window was full. */
function filledAt(sent: Sent[]): number {
  // the previous history without its closing bracket is a prefix of an extended one
  const i = sent.findIndex((s, k) => k > 0 && commonPrefix(sent[k - 1].history, s.history) < sent[k - 1].history.length - 1)
  return i < 0 ? sent.length : i
}

interface Shares { whole: ReturnType<typeof share>; history: ReturnType<typeof share>; requests: number; cuts: number; first: Sent }

/** The shares of one run's requests, after the window first filled. */
function measure(sent: Sent[]): Shares {
  const from = filledAt(sent)
  const cuts = sent.filter((s, k) => k >= from && commonPrefix(sent[k - 1].history, s.history) < sent[k - 1].history.length - 1).length
  return {
    whole: share(sent, from, s => s.tools + s.system + s.history), history: share(sent, from, s => s.history),
    requests: sent.length - Math.max(from, 1), cuts, first: sent[0],
  }
}

/** One chat in both layouts. */
async function compare(dir: string, chat: Chat): Promise<{ now: Shares; old: Shares }> {
  return {
    now: measure(await run(join(dir, 'blocks'), chat, 0.5)),
    old: measure((await run(join(dir, 'sliding'), chat, 1)).map(oldLayout)),
  }
}

const pct = (x: number) => x.toFixed(3)

export async function promptCache(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'prompt-cache')
  const { now, old } = await compare(join(dir, 'small'), { messages: MESSAGES, context: CONTEXT })
  // every person of the chat with a note: each turn opens with the present people's (SPEC §21)
  const people = measure(await run(join(dir, 'people'), { messages: MESSAGES, context: CONTEXT }, 0.5, true))
  const { now: wide, old: wideOld } = await compare(join(dir, 'default'), { messages: DEFAULT_CHAT, context: DEFAULT_CONTEXT })
  const { now: harsh, old: harshOld } = await compare(join(dir, 'harsh'), { messages: MESSAGES, context: HARSH })
  const fixed = now.first.tools.length + now.first.system.length
  const system = qwen3Tokens(now.first.system)
  const tools = qwen3Tokens(now.first.tools)
  // the same request before issue 38, as scripts/show-request.ts --json wrote it then, counted now by the same tokenizer
  const before = qwen3Tokens(BEFORE_38.system) + qwen3Tokens(BEFORE_38.tools)
  const counts = (x: Shares) => `${x.requests} requests after the window first filled, ${x.cuts} of them after a cut`
  return [
    {
      benchmark: '12 prompt cache: share of a request repeating the previous one\'s prefix', figure: now.whole.mean, unit: '',
      baseline: old.whole.mean, baselineLabel: 'minute clock, sliding window', ratio: now.whole.mean / old.whole.mean, target: '≥ 0.85', pass: now.whole.mean >= 0.85,
      note: `${MESSAGES} messages, limits ${CONTEXT.maxMessages} messages / ${CONTEXT.maxChars} chars, trimTo 0.5; ${counts(now)} (old layout: ${old.requests}, sliding); `
        + `the mean of each request's share; weighted by characters ${pct(now.whole.weighted)} (old ${pct(old.whole.weighted)})`,
    },
    {
      benchmark: '12 prompt cache: the same share with people notes (6 people, 300 characters each)', figure: people.whole.mean, unit: '',
      baseline: now.whole.mean, baselineLabel: 'no notes', ratio: people.whole.mean / now.whole.mean, target: '≥ 0.85', pass: people.whole.mean >= 0.85,
      note: `the notes of the people in each turn's new messages open the turn (the newest message), never the system prompt; ${counts(people)}`,
    },
    {
      benchmark: '12 prompt cache: the same share, history only', figure: now.history.mean, unit: '',
      baseline: old.history.mean, baselineLabel: 'sliding window', ratio: now.history.mean / old.history.mean, target: '≥ 0.70', pass: now.history.mean >= 0.70,
      note: `weighted by characters ${pct(now.history.weighted)} (old ${pct(old.history.weighted)})`,
    },
    {
      benchmark: `12 prompt cache, harsher limits (${HARSH.maxMessages} / ${HARSH.maxChars.toLocaleString('en')}, history only, informational)`, figure: harsh.history.mean, unit: '',
      baseline: harshOld.history.mean, baselineLabel: 'sliding window', ratio: harsh.history.mean / harshOld.history.mean,
      note: `${counts(harsh)}; whole request ${pct(harsh.whole.mean)} (old layout ${pct(harshOld.whole.mean)})`,
    },
    {
      benchmark: `12 prompt cache at the default limits (${DEFAULT_CHAT.toLocaleString('en')} messages, history only, informational)`, figure: wide.history.mean, unit: '',
      baseline: wideOld.history.mean, baselineLabel: 'sliding window', ratio: wide.history.mean / wideOld.history.mean,
      note: `limits ${DEFAULT_CONTEXT.maxMessages} messages / ${DEFAULT_CONTEXT.maxChars.toLocaleString('en')} chars; ${counts(wide)}; whole request ${pct(wide.whole.mean)} (old layout ${pct(wideOld.whole.mean)})`,
    },
    {
      benchmark: '12 prompt cache: fixed part (system prompt + tool declarations), Qwen3 tokens', figure: system + tools, unit: 'tokens',
      baseline: before, baselineLabel: 'before issue 38', ratio: (system + tools) / before, target: '≤ 0.8×', pass: system + tools <= 0.8 * before,
      note: `system prompt ${system}, tool declarations ${tools} (as the tools' JSON); Qwen3's own tokenizer; default profile, memory on, default tools; `
        + `the baseline is bench/baselines/fixed-part-before-issue-38.json, the same request at the start of issue 38`,
    },
    {
      benchmark: '12 prompt cache: fixed part (system prompt + tool declarations, est. tokens)', figure: Math.round(fixed / 4), unit: 'tokens',
      note: `${fixed} characters (system ${now.first.system.length}, tool declarations ${now.first.tools.length}) at 4 characters a token `
        + `(the runtime's own window estimate starts at 2, i.e. ${Math.round(fixed / 2)}); default profile, memory on, default tools`,
    },
  ]
}
