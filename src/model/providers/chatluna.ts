// A ChatLuna model (SPEC §11.1, `models[].chatluna: 'platform/model'`) as an AI SDK language model:
// the prompt goes to ChatLuna's LangChain chat model (invoke or stream, tools as call options) and
// its AIMessage comes back as V3 content and usage. ChatLuna's keys and servers stay ChatLuna's.
import { APICallError } from '@ai-sdk/provider'
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart, SharedV3Warning } from '@ai-sdk/provider'
import { newCallId } from '../../util/call-id'
import {
  finishOf, reasoningOf, textOf, toContent, toLunaMessages, toLunaTools, toUsage,
  type LunaAnswer, type LunaMessage, type LunaTool, type LunaUsage, type ReasoningBack,
} from './chatluna-messages'

/** What the bridge needs of ChatLuna; the Koishi edge gives it (src/koishi/chatluna.ts). */
export interface ChatLunaModels {
  /** false while Koishi has no chatluna service (not installed, stopped, reloading) */
  loaded(): boolean
  /** ChatLuna's chat model of 'platform/model' now; undefined while ChatLuna has none (loading, or the model was dropped) */
  model(name: string): Promise<unknown>
}

/** The part of a LangChain BaseChatModel the bridge calls. */
interface LunaChatModel {
  invoke(messages: LunaMessage[], options: LunaCallOptions): Promise<LunaAnswer>
  stream?(messages: LunaMessage[], options: LunaCallOptions): Promise<AsyncIterable<LunaAnswer>>
}

/** ChatLunaModelCallOptions that the bridge sets. */
interface LunaCallOptions {
  tools?: LunaTool[]
  signal?: AbortSignal
  maxTokens?: number
  temperature?: number
  topP?: number
  stop?: string[]
}

/** The model is not there now: 'unavailable' to failureKind (it fails over), in words that name ChatLuna. */
export class ChatLunaUnavailable extends Error {
  override name = 'ChatLunaUnavailable'
}

// koishi-plugin-chatluna 1.3's ChatLunaErrorCode, the ones a model call gives
const CODES: Record<number, string> = {
  1: 'NETWORK_ERROR', 2: 'UNSUPPORTED_PROXY_PROTOCOL', 3: 'QUEUE_OVERFLOW', 5: 'ABORTED', 100: 'API_KEY_UNAVAILABLE',
  101: 'API_REQUEST_RESOLVE_CAPTCHA', 102: 'API_REQUEST_TIMEOUT', 103: 'API_REQUEST_FAILED', 104: 'API_UNSAFE_CONTENT',
  300: 'MODEL_ADAPTER_NOT_FOUND', 301: 'MODEL_NOT_FOUND', 303: 'MODEL_INIT_ERROR', 307: 'NOT_AVAILABLE_CONFIG',
  309: 'MODEL_RESPONSE_IS_EMPTY', 999: 'UNKNOWN_ERROR',
}

export interface ChatLunaOptions {
  reasoning?: ReasoningBack
}

export function chatLunaModel(name: string, models: ChatLunaModels | undefined, o: ChatLunaOptions = {}): LanguageModelV3 {
  async function resolve(signal: AbortSignal | undefined): Promise<LunaChatModel> {
    if (!models?.loaded()) throw new ChatLunaUnavailable(`model "${name}" is a ChatLuna model, but ChatLuna is not loaded (koishi-plugin-chatluna)`)
    // ChatLuna's first lookup of a platform may ask its server: within the step's timeout too
    const m = await guarded(name, signal, () => models.model(name)) as LunaChatModel | undefined
    if (!m || typeof m.invoke !== 'function') throw new ChatLunaUnavailable(`ChatLuna has no model "${name}" now (ChatLuna may be reloading)`)
    return m
  }
  function request(options: LanguageModelV3CallOptions) {
    const warnings: SharedV3Warning[] = []
    const tools = toLunaTools(options.tools, warnings)
    const call: LunaCallOptions = { ...(tools.length ? { tools } : {}), ...(options.abortSignal ? { signal: options.abortSignal } : {}) }
    if (options.maxOutputTokens !== undefined) call.maxTokens = options.maxOutputTokens
    if (options.temperature !== undefined) call.temperature = options.temperature
    if (options.topP !== undefined) call.topP = options.topP
    if (options.stopSequences?.length) call.stop = options.stopSequences
    // ChatLuna's call options have no tool_choice: every call is 'auto'
    if (options.toolChoice && options.toolChoice.type !== 'auto') warnings.push({ type: 'unsupported', feature: `toolChoice ${options.toolChoice.type}` })
    return { messages: toLunaMessages(options.prompt, o.reasoning), call, warnings }
  }
  return {
    specificationVersion: 'v3', provider: 'chatluna', modelId: name, supportedUrls: {},
    async doGenerate(options) {
      const model = await resolve(options.abortSignal)
      const { messages, call, warnings } = request(options)
      const answer = await guarded(name, options.abortSignal, () => model.invoke(messages, call))
      const content = toContent(answer ?? {}, newCallId)
      return {
        content, warnings, usage: toUsage(answer?.usage_metadata),
        finishReason: finishOf(answer ?? {}, content.some(c => c.type === 'tool-call')),
      }
    },
    async doStream(options) {
      const model = await resolve(options.abortSignal)
      const { messages, call, warnings } = request(options)
      if (typeof model.stream !== 'function') throw new ChatLunaUnavailable(`ChatLuna's model "${name}" cannot stream`)
      const chunks = (await guarded(name, options.abortSignal, () => model.stream!(messages, call)))[Symbol.asyncIterator]()
      // the first chunk is awaited here: a request that fails at once throws from doStream, and fails over
      const first = await guarded(name, options.abortSignal, () => chunks.next())
      return { stream: streamParts(name, first, chunks, warnings, options.abortSignal) }
    },
  }
}

/** `run`, its errors as ChatLuna's words with ChatLuna's code; our own abort or timeout as itself. */
async function guarded<T>(name: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  signal?.throwIfAborted()
  let stop: (() => void) | undefined
  // a model that ignores the signal does not hold the turn past its timeout
  const aborted = signal && new Promise<never>((_, reject) => {
    const on = () => reject(signal.reason)
    signal.addEventListener('abort', on, { once: true })
    stop = () => signal.removeEventListener('abort', on)
  })
  try {
    return await (aborted ? Promise.race([run(), aborted]) : run())
  } catch (e) {
    if (signal?.aborted) throw signal.reason
    throw chatLunaFailure(name, e)
  } finally {
    stop?.()
  }
}

/**
 * A ChatLunaError (name 'ChatLunaError', numeric `errorCode`, the adapter's own error as
 * `originError`) in words: its message is only ChatLuna's template. An adapter that quotes the
 * server's HTTP status ("Status: 429 ...") gives an APICallError of that status, so a refused
 * request (400) does not fail over and an overloaded one does (SPEC §11); any other is 'unavailable'.
 */
export function chatLunaFailure(name: string, e: unknown): unknown {
  const err = e as { name?: unknown; errorCode?: unknown; originError?: { message?: unknown }; message?: unknown } | undefined
  if (err?.name !== 'ChatLunaError' || typeof err.errorCode !== 'number') return e
  const code = err.errorCode
  const origin = typeof err.originError?.message === 'string' ? err.originError.message : undefined
  const message = `ChatLuna error ${code} (${CODES[code] ?? 'unknown code'}) from model "${name}"${origin ? `: ${origin}` : ''}`
  const status = origin?.match(/\bStatus:\s*(\d{3})\b/)?.[1]
  if (status) {
    const body = origin!.match(/Response:\s*([\s\S]*)$/)?.[1]
    // not retryable: ChatLuna has retried (and rotated its keys) already
    return new APICallError({
      message, url: `chatluna:${name}`, requestBodyValues: undefined, statusCode: Number(status), responseBody: body, cause: e, isRetryable: false,
    })
  }
  const out = new ChatLunaUnavailable(message)
  out.cause = e
  return out
}

/** LangChain's AIMessageChunks as V3 stream parts; tool calls are whole at the end (their chunks are joined by index). */
function streamParts(
  name: string, first: IteratorResult<LunaAnswer>, chunks: AsyncIterator<LunaAnswer>, warnings: SharedV3Warning[], signal?: AbortSignal,
): ReadableStream<LanguageModelV3StreamPart> {
  const calls = new Map<string | number, { id?: string; name: string; args: string }>()
  let usage: LunaUsage | undefined
  let last: LunaAnswer = {}
  let text = false
  let reasoning = false
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(ctl) {
      ctl.enqueue({ type: 'stream-start', warnings })
      try {
        for (let r = first; !r.done; r = await guarded(name, signal, () => chunks.next())) {
          const c: LunaAnswer = r.value ?? {}
          last = c
          if (c.usage_metadata) usage = c.usage_metadata
          const thought = reasoningOf(c)
          if (thought) {
            if (!reasoning) ctl.enqueue({ type: 'reasoning-start', id: 'reasoning-0' })
            reasoning = true
            ctl.enqueue({ type: 'reasoning-delta', id: 'reasoning-0', delta: thought })
          }
          const delta = textOf(c.content)
          if (delta) {
            if (!text) ctl.enqueue({ type: 'text-start', id: 'text-0' })
            text = true
            ctl.enqueue({ type: 'text-delta', id: 'text-0', delta })
          }
          // an AIMessageChunk has tool_call_chunks; a whole AIMessage in the stream has only tool_calls
          const parts: NonNullable<LunaAnswer['tool_call_chunks']> = c.tool_call_chunks?.length ? c.tool_call_chunks
            : (c.tool_calls ?? []).map(t => ({ id: t.id, name: t.name, args: JSON.stringify(t.args ?? {}) }))
          for (const [i, k] of parts.entries()) {
            const key = k.index ?? k.id ?? `at-${i}`
            const seen = calls.get(key) ?? { name: '', args: '' }
            calls.set(key, { id: seen.id ?? k.id, name: seen.name + (k.name ?? ''), args: seen.args + (k.args ?? '') })
          }
        }
      } catch (e) {
        ctl.enqueue({ type: 'error', error: e })
        ctl.close()
        return
      }
      if (reasoning) ctl.enqueue({ type: 'reasoning-end', id: 'reasoning-0' })
      if (text) ctl.enqueue({ type: 'text-end', id: 'text-0' })
      let called = false
      for (const c of calls.values()) {
        if (!c.name) continue
        const id = c.id || newCallId()
        const input = c.args.trim() ? c.args : '{}'
        ctl.enqueue({ type: 'tool-input-start', id, toolName: c.name })
        ctl.enqueue({ type: 'tool-input-delta', id, delta: input })
        ctl.enqueue({ type: 'tool-input-end', id })
        ctl.enqueue({ type: 'tool-call', toolCallId: id, toolName: c.name, input })
        called = true
      }
      ctl.enqueue({ type: 'finish', usage: toUsage(usage), finishReason: finishOf(last, called) })
      ctl.close()
    },
  })
}
