// A Runtime without Koishi, for the turn and typing benchmarks: a scripted in-process model, a
// platform that answers at once, the profile defaults of the config schema.
import { Sandbox } from '../src/sandbox'
import { VisionCache } from '../src/model/vision'
import { TextCache } from '../src/resources/text'
import { systemClock, type Clock } from '../src/util/clock'
import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { configSchema } from '../src/runtime/config-of-parts'
import type { TypingConfig } from '../src/config/types'
import type { Conversation } from '../src/runtime/conversation'
import { Extensions } from '../src/runtime/extensions'
import { Runtime } from '../src/runtime/runtime'
import type { Fact } from '../src/history/entries'
import type { Logger } from '../src/util/logger'
import type { Platform } from '../src/runtime/types'
import { standardWakeEngine } from '../src/attention/standard-wake'

export const BOT = 'bench:1'

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }

export const usage: LanguageModelV3GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/**
 * A minimal LanguageModelV3. ai/test's MockLanguageModelV3 keeps every call's options (the whole
 * prompt) in doGenerateCalls, which would grow without end over 10,000 turns and hide a real leak.
 */
export function scriptedModel(respond: () => LanguageModelV3Content[], timing?: { modelMs: number }): LanguageModelV3 {
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate(): Promise<LanguageModelV3GenerateResult> {
      const t = performance.now()
      const content = respond()
      if (timing) timing.modelMs += performance.now() - t
      return { content, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
    },
    async doStream() {
      throw new Error('the bench model does not stream')
    },
  }
}

let callId = 0
export const sendCall = (messages: string[]): LanguageModelV3Content => ({
  type: 'tool-call', toolCallId: `c${++callId}`, toolName: 'send_message', input: JSON.stringify({ messages }),
})

export interface BenchRuntimeOptions {
  dataDir: string
  model: LanguageModelV3
  /** overrides of the profile's typing config; the schema defaults otherwise */
  typing?: Partial<TypingConfig>
  /** other profile fields (e.g. memory), through the schema */
  profile?: Record<string, unknown>
  random?: () => number
  onSend?: (channel: string, content: string) => void
  /** the runtime's clock (a simulated time); the process's by default */
  clock?: Clock
  /** more models beside `main` (a judge) */
  models?: { id: string; model: LanguageModelV3 }[]
}

export async function benchRuntime(o: BenchRuntimeOptions): Promise<Runtime> {
  const model = { id: 'main', baseURL: '', apiKey: '', model: 'm', maxRetries: 0, timeoutMs: 60000, toolCalls: 'native' as const, contextTokens: 0, fallback: [] as string[] }
  const config = configSchema({
    models: [model, ...(o.models ?? []).map(m => ({ ...model, id: m.id }))],
    // no burst wait unless a bench sets its timing: a fact's turn starts at once, as `turn()` expects
    profiles: [{ id: 'p', model: 'main', claims: [{ bot: '*', channels: ['*'] }], timing: { debounceMs: 0, debounceMaxMs: 0 }, ...(o.typing ? { typing: o.typing } : {}), ...o.profile }],
  } as any)
  let sent = 0
  const platform: Platform = {
    isOnline: () => true,
    async send({ channel, content }) {
      o.onSend?.(channel, content)
      return [`id-${++sent}`]
    },
  }
  const extensions = new Extensions()
  extensions.addWakeEngine('standard', standardWakeEngine)   // as the Koishi service does
  const runtime = new Runtime({
    profile: config.profiles[0], bot: BOT, dataDir: o.dataDir, logger: quiet, platform,
    models: new Map([['main', { config: model, model: o.model }], ...(o.models ?? []).map(m => [m.id, { config: { ...model, id: m.id }, model: m.model }] as const)]), extensions,
    limits: config.codemode, random: o.random ?? Math.random, clock: o.clock ?? systemClock,
    sandbox: new Sandbox(), vision: new VisionCache(), files: new TextCache(),
  })
  await runtime.start()
  return runtime
}

let factId = 0
export function directFact(user: number, content = 'hello'): Fact {
  return { id: `f${++factId}`, at: Date.now(), bot: BOT, channel: `private:u${user}`, direct: true, user: { id: `u${user}`, name: 'U' }, content }
}

/**
 * Delivers a waking fact and resolves when its turn has ended (`settled`: the measurement ends
 * exactly when the turn does, without a polling loop that would burn the CPU the turn needs).
 */
export async function turn(runtime: Runtime, fact: Fact): Promise<Conversation> {
  await runtime.receive(fact)
  const conv = await runtime.conversation(runtime.conversationKey(fact.channel))
  await conv.settled()
  return conv
}
