// 21. What a provider's own prompt cache makes of a long chat (SPEC §11.1, §16): bench 12's
// 300-message group chat through a real Runtime whose model is the AI SDK's Anthropic provider
// talking HTTP to tests/support/fake-anthropic.ts, which bills as Anthropic's "Prompt caching" says
// (reads only of prefixes written at a breakpoint before, within a 20-block look back, writes at
// 1.25×, nothing under 1,024 tokens, entries living 5 minutes of the chat's own time). With
// kotodama's breakpoints against the same chat without them. Then the same chat on Gemini's API
// (tests/support/fake-gemini.ts, implicit caching: the longest prefix an earlier request began with).
import { join } from 'node:path'
import { createAnthropic } from '@ai-sdk/anthropic'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { nativeModel } from '../src/model/providers/native'
import type { Clock } from '../src/util/clock'
import { FakeAnthropic } from '../tests/support/fake-anthropic'
import { FakeGemini } from '../tests/support/fake-gemini'
import type { Mode, Row } from './measure'
import { CONTEXT, MESSAGES, playChat, type Line } from './prompt-cache'

/** claude-sonnet-4-5's prices per million tokens */
const PRICE = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 }

interface Billed { input: number; read: number; write: number; output: number; requests: number }

/** A fake provider for one chat: the model to call, and what the model answers as the turn's plan says. */
interface Provider {
  model: LanguageModelV3
  /** answers from here: read the page (when the line has one and it was not read yet), else speak */
  answer(reply: (read: boolean) => { read?: string; say?: string }): void
  close(): Promise<void>
}

async function anthropic(now: () => number, breakpoints: boolean): Promise<Provider> {
  const fake = await FakeAnthropic.start({ now })
  const config = { id: 'main', provider: 'anthropic' as const, baseURL: fake.baseURL, apiKey: 'k', model: 'claude-sonnet-4-5', maxRetries: 0, timeoutMs: 30000 } as any
  let id = 0
  return {
    model: (breakpoints ? nativeModel(config) : createAnthropic({ baseURL: fake.baseURL, apiKey: 'k' }).languageModel(config.model)) as LanguageModelV3,
    answer: reply => fake.fallback(req => {
      // Anthropic merges a turn's new facts into the user message of the last tool result: only a result at the end is one
      const last = req.body.messages.at(-1)
      const r = reply(Array.isArray(last?.content) && last.content.at(-1)?.type === 'tool_result')
      return { toolCalls: [r.read ? { name: 'read', input: { url: r.read }, id: `toolu_${++id}` } : { name: 'send_message', input: { messages: [r.say] }, id: `toolu_${++id}` }] }
    }),
    close: () => fake.close(),
  }
}

async function gemini(): Promise<Provider> {
  const fake = await FakeGemini.start()
  const config = { id: 'main', provider: 'google' as const, baseURL: fake.baseURL, apiKey: 'k', model: 'gemini-2.5-flash', maxRetries: 0, timeoutMs: 30000 } as any
  return {
    model: nativeModel(config) as LanguageModelV3,
    answer: reply => fake.fallback(req => {
      const last = req.body.contents.at(-1)
      const r = reply(!!last?.parts?.at(-1)?.functionResponse)
      return { toolCalls: [r.read ? { name: 'read', args: { url: r.read } } : { name: 'send_message', args: { messages: [r.say] } }] }
    }),
    close: () => fake.close(),
  }
}

async function chat(dir: string, provider: (now: () => number) => Promise<Provider>): Promise<Billed> {
  let p: Provider | undefined
  const model = async (clock: Clock, plan: { line?: Line }) => {
    p = await provider(() => clock.now())
    p.answer(readDone => plan.line!.read && !readDone ? { read: plan.line!.read } : { say: plan.line!.reply })
    return p.model
  }
  try {
    return await playChat({ dir, chat: { messages: MESSAGES, context: CONTEXT }, trimTo: 0.5, model }, runtime => {
      const billed: Billed = { input: 0, read: 0, write: 0, output: 0, requests: 0 }
      for (const { total: t } of runtime.usage.snapshot()) {
        billed.requests += t.requests
        billed.read += t.cachedTokens
        billed.write += t.cacheWriteTokens ?? 0
        billed.input += t.promptTokens - t.cachedTokens - (t.cacheWriteTokens ?? 0)
        billed.output += t.completionTokens
      }
      return billed
    })
  } finally {
    await p?.close()
  }
}

type Prices = { input: number; cacheWrite: number; cacheRead: number; output: number }
/** gemini-2.5-flash: cached prompt tokens at a quarter of the input price */
const GEMINI: Prices = { input: 0.3, cacheWrite: 0.3, cacheRead: 0.075, output: 2.5 }
const cost = (b: Billed, p: Prices = PRICE) => (b.input * p.input + b.write * p.cacheWrite + b.read * p.cacheRead + b.output * p.output) / 1e6
/** the same tokens with nothing cached */
const uncached = (b: Billed): Billed => ({ ...b, input: b.input + b.read + b.write, read: 0, write: 0 })
const readShare = (b: Billed) => b.read / (b.input + b.read + b.write)

export async function providerCache(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'provider-cache')
  const withBreakpoints = await chat(join(dir, 'breakpoints'), now => anthropic(now, true))
  const without = await chat(join(dir, 'none'), now => anthropic(now, false))
  const implicit = await chat(join(dir, 'gemini'), () => gemini())
  const gShare = readShare(implicit)
  const gRatio = cost(implicit, GEMINI) / cost(uncached(implicit), GEMINI)
  const share = readShare(withBreakpoints)
  const ratio = cost(withBreakpoints) / cost(without)
  const tokens = (b: Billed) => `${b.requests} requests: ${b.read} read, ${b.write} written, ${b.input} uncached input, ${b.output} output tokens`
  return [
    {
      benchmark: `21 Anthropic prompt cache: share of prompt tokens billed as cache reads (${MESSAGES}-message chat of bench 12)`,
      figure: share, unit: '', baseline: readShare(without), baselineLabel: 'no breakpoints', target: '≥ 0.85', pass: share >= 0.85,
      note: `with breakpoints ${tokens(withBreakpoints)}; without ${tokens(without)}`,
    },
    {
      benchmark: '21 Anthropic prompt cache: cost of the chat at claude-sonnet-4-5 prices',
      figure: cost(withBreakpoints), unit: '$', baseline: cost(without), baselineLabel: 'no breakpoints', ratio, target: '≤ 0.3×', pass: ratio <= 0.3,
      note: `input $${PRICE.input}, cache write $${PRICE.cacheWrite}, cache read $${PRICE.cacheRead}, output $${PRICE.output} per million tokens`,
    },
    {
      benchmark: '21 Gemini implicit cache: share of prompt tokens reported as cached (the same chat, gemini-2.5-flash)',
      figure: gShare, unit: '', baseline: 0, baselineLabel: 'nothing cached', target: '≥ 0.85', pass: gShare >= 0.85,
      note: `${tokens(implicit)}; the fake counts the longest prefix an earlier request of the model began with, from 1,024 tokens`,
    },
    {
      benchmark: '21 Gemini implicit cache: cost of the chat at gemini-2.5-flash prices',
      figure: cost(implicit, GEMINI), unit: '$', baseline: cost(uncached(implicit), GEMINI), baselineLabel: 'the same tokens, nothing cached', ratio: gRatio,
      note: `input $${GEMINI.input}, cached $${GEMINI.cacheRead}, output $${GEMINI.output} per million tokens: cached tokens cost a quarter, so 0.25× is the floor`,
    },
  ]
}
