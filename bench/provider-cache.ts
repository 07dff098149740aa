// 21. What a provider's own prompt cache makes of a long chat (SPEC §11.1, §16): bench 12's
// 300-message group chat through a real Runtime whose model is the AI SDK's Anthropic provider
// talking HTTP to tests/support/fake-anthropic.ts, which bills as Anthropic's "Prompt caching" says
// (reads only of prefixes written at a breakpoint before, within a 20-block look back, writes at
// 1.25×, nothing under 1,024 tokens, entries living 5 minutes of the chat's own time). With
// kotodama's breakpoints against the same chat without them.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createAnthropic } from '@ai-sdk/anthropic'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import type { Fact } from '../src/history/entries'
import { nativeModel } from '../src/model/providers/native'
import { systemClock, type Clock } from '../src/util/clock'
import { FakeAnthropic } from '../tests/support/fake-anthropic'
import type { Mode, Row } from './measure'
import { CONTEXT, MESSAGES, NO_TYPING, script, type Line } from './prompt-cache'
import { benchRuntime, BOT, turn } from './runtime-setup'

/** claude-sonnet-4-5's prices per million tokens */
const PRICE = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 }

interface Billed { input: number; read: number; write: number; output: number; requests: number }

async function chat(dir: string, breakpoints: boolean): Promise<Billed> {
  const { lines, pages } = script(MESSAGES)
  let simulated = Date.UTC(2026, 11, 1, 9, 0, 0)
  const clock: Clock = { ...systemClock, now: () => simulated }
  const fake = await FakeAnthropic.start({ now: () => simulated })
  const plan: { line?: Line } = {}
  let id = 0
  fake.fallback(req => {
    const last = req.body.messages.at(-1)
    const readDone = Array.isArray(last?.content) && last.content.some((b: any) => b.type === 'tool_result')
    const line = plan.line!
    return line.read && !readDone
      ? { toolCalls: [{ name: 'read', input: { url: line.read }, id: `toolu_${++id}` }] }
      : { toolCalls: [{ name: 'send_message', input: { messages: [line.reply] }, id: `toolu_${++id}` }] }
  })
  const config = { id: 'main', provider: 'anthropic' as const, baseURL: fake.baseURL, apiKey: 'k', model: 'claude-sonnet-4-5', maxRetries: 0, timeoutMs: 30000 } as any
  const model = (breakpoints ? nativeModel(config) : createAnthropic({ baseURL: fake.baseURL, apiKey: 'k' }).languageModel(config.model)) as LanguageModelV3
  const runtime = await benchRuntime({ dataDir: dir, model, typing: NO_TYPING, clock, profile: { context: { ...CONTEXT, trimTo: 0.5 } } })
  const billed: Billed = { input: 0, read: 0, write: 0, output: 0, requests: 0 }
  try {
    await mkdir(join(runtime.home, 'local', 'pages'), { recursive: true })
    for (const [name, page] of pages) await writeFile(join(runtime.home, 'local', 'pages', name), page)
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
    for (const u of runtime.usage.snapshot()) {
      const t = u.total
      billed.requests += t.requests
      billed.read += t.cachedTokens
      billed.write += t.cacheWriteTokens ?? 0
      billed.input += t.promptTokens - t.cachedTokens - (t.cacheWriteTokens ?? 0)
      billed.output += t.completionTokens
    }
  } finally {
    await runtime.stop()
    await fake.close()
  }
  return billed
}

const cost = (b: Billed) => (b.input * PRICE.input + b.write * PRICE.cacheWrite + b.read * PRICE.cacheRead + b.output * PRICE.output) / 1e6
const readShare = (b: Billed) => b.read / (b.input + b.read + b.write)

export async function providerCache(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'provider-cache')
  const withBreakpoints = await chat(join(dir, 'breakpoints'), true)
  const without = await chat(join(dir, 'none'), false)
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
  ]
}
