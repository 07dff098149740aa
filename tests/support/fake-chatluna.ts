// Koishi's `chatluna` service (koishi-plugin-chatluna 1.3.36), faked as the plugin that provides it,
// with the API of its lib: `createChatModel('platform/model')` resolves to a ComputedRef whose
// `.value` is the chat model now (undefined while its platform is not loaded or after the model was
// dropped), `platform.listAllModels(ModelType)` a ref of `{ name, platform, type }` (ModelType: all 0,
// llm 1, embeddings 2), and the events 'chatluna/model-added' / 'chatluna/model-removed'.
// The chat model is a LangChain BaseChatModel as far as a caller sees it: `invoke(messages, options)`
// and `stream(messages, options)`, message-likes coerced by @langchain/core 0.3's rules
// (coerceMessageLikeToMessage: role system/user/assistant/tool, a tool message needs tool_call_id),
// tools as call options read as ChatLuna's OpenAI-style adapters read them
// (@chatluna/v1-shared-adapter formatToolToOpenAITool: name, description, a JSON Schema `schema`,
// from which it deletes additionalProperties and $schema in place). Each call records the request
// the adapter would send (`wire`). Errors are ChatLunaErrors: a numeric errorCode, ChatLuna's
// template as the message and the adapter's own error (with the server's status) as originError.
import { Context, Service } from 'koishi'

export interface AIMessageLike {
  content?: string | { type: string; text?: string }[]
  tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[]
  usage_metadata?: { input_tokens: number; output_tokens: number; total_tokens: number; input_token_details?: Record<string, number> }
  additional_kwargs?: Record<string, unknown>
}

/** A scripted answer: a message, the chunks a stream yields, or an error thrown. */
export type LunaReply = AIMessageLike | { chunks: AIMessageLike[] } | { error: Error } | { hang: true }

export interface LunaCall {
  via: 'invoke' | 'stream'
  /** the messages as LangChain coerced them */
  messages: CoercedMessage[]
  options: any
  /** what ChatLuna's OpenAI-style adapter would send for them */
  wire: { messages: any[]; tools?: any[] }
}

export interface CoercedMessage {
  type: 'system' | 'human' | 'ai' | 'tool'
  content: unknown
  tool_calls?: { id?: string; name: string; args: Record<string, unknown>; type?: string }[]
  tool_call_id?: string
  name?: string
  additional_kwargs: Record<string, unknown>
}

/** koishi-plugin-chatluna's ChatLunaError as it reaches a caller. */
export class ChatLunaErrorLike extends Error {
  override name = 'ChatLunaError'
  constructor(readonly errorCode: number, readonly originError?: Error) {
    super(`使用 ChatLuna 时出现错误，错误码为 ${errorCode}。请联系开发者以解决此问题。`)
  }
}

/** What the shared adapter's processResponse throws for a non-200 answer. */
export const serverError = (status: number, statusText: string, body: unknown) => new ChatLunaErrorLike(103,
  new Error(`Error when calling completion, Status: ${status} ${statusText}, Response: ${JSON.stringify(body)}`))

const ROLES: Record<string, CoercedMessage['type']> = { system: 'system', user: 'human', human: 'human', assistant: 'ai', ai: 'ai', tool: 'tool' }

/** @langchain/core 0.3.80 messages/utils.js _constructMessageFromParams, for message-likes with a role. */
function coerce(like: any): CoercedMessage {
  const { role, type, ...rest } = like ?? {}
  const t = ROLES[role ?? type]
  if (!t || (t === 'tool' && !('tool_call_id' in rest))) {
    const why = 'Unable to coerce message from array: only human, AI, system, developer, or tool message coercion is currently supported.'
    throw new Error(`${why}\n\nReceived: ${JSON.stringify(like)}`)
  }
  return { ...rest, type: t, additional_kwargs: rest.additional_kwargs ?? {} }
}

/** @chatluna/v1-shared-adapter langchainMessageToOpenAIMessage + processInterleavedThinkMessages, without images' fetching. */
function openAIMessages(messages: CoercedMessage[]): any[] {
  const role = { system: 'system', human: 'user', ai: 'assistant', tool: 'tool' } as const
  const out = messages.map(m => {
    const msg: any = { role: role[m.type], content: m.content === '' ? null : m.content }
    if ((m.type === 'ai' || m.type === 'tool') && m.name !== undefined) msg.name = m.name
    if (m.tool_call_id) msg.tool_call_id = m.tool_call_id
    if (m.type === 'ai' && m.tool_calls?.length) {
      msg.tool_calls = m.tool_calls.map(c => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }))
    }
    return msg
  })
  const toolRound = out.some(m => m.role === 'assistant' && m.tool_calls?.length)
  return out.map((m, i) => toolRound && messages[i].additional_kwargs.reasoning_content != null
    ? { ...m, reasoning_content: messages[i].additional_kwargs.reasoning_content } : m)
}

/** formatToolToOpenAITool with removeAdditionalProperties: it changes the schema it is given. */
function openAITool(tool: any): any {
  const stack = [tool.schema]
  while (stack.length) {
    const cur = stack.pop()
    if (!cur || typeof cur !== 'object') continue
    delete cur.additionalProperties
    delete cur.$schema
    for (const v of Object.values(cur)) if (v && typeof v === 'object') stack.push(v)
  }
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.schema } }
}

/** A LangChain-like chat model of one ChatLuna platform model. */
export class FakeChatModel {
  readonly calls: LunaCall[] = []
  private queue: LunaReply[] = []
  private fallbackReply?: LunaReply

  constructor(readonly name: string) {}

  script(...replies: LunaReply[]): this {
    this.queue.push(...replies)
    return this
  }

  fallback(reply: LunaReply): this {
    this.fallbackReply = reply
    return this
  }

  private take(via: LunaCall['via'], likes: unknown[], options: any): LunaReply {
    if (!Array.isArray(likes)) throw new Error('the fake takes message-likes as an array')
    const messages = likes.map(coerce)
    const tools = options?.tools?.map(openAITool)
    this.calls.push({ via, messages, options, wire: { messages: openAIMessages(messages), ...(tools ? { tools } : {}) } })
    const reply = this.queue.shift() ?? this.fallbackReply
    if (!reply) throw new ChatLunaErrorLike(309)   // MODEL_RESPONSE_IS_EMPTY: nothing scripted
    if ('error' in reply) throw reply.error
    return reply
  }

  async invoke(likes: unknown[], options?: any): Promise<AIMessageLike> {
    const reply = this.take('invoke', likes, options)
    if ('hang' in reply) return new Promise(() => {})
    if ('chunks' in reply) return merge(reply.chunks)
    return { content: '', tool_calls: [], additional_kwargs: {}, ...reply as AIMessageLike }
  }

  async stream(likes: unknown[], options?: any): Promise<AsyncIterable<any>> {
    const reply = this.take('stream', likes, options)
    if ('hang' in reply) return { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }
    const chunks = 'chunks' in reply ? reply.chunks : [reply as AIMessageLike]
    return (async function* () {
      for (const c of chunks) yield { content: '', additional_kwargs: {}, tool_call_chunks: [] as unknown[], ...c }
    })()
  }
}

/** Chunks concatenated as AIMessageChunk.concat does (text, tool-call chunks by index, the last usage). */
function merge(chunks: any[]): AIMessageLike {
  const calls = new Map<number, any>()
  let content = ''
  let usage
  for (const c of chunks) {
    content += typeof c.content === 'string' ? c.content : ''
    for (const k of c.tool_call_chunks ?? []) {
      const seen = calls.get(k.index) ?? { id: k.id, name: '', args: '' }
      calls.set(k.index, { id: seen.id ?? k.id, name: seen.name + (k.name ?? ''), args: seen.args + (k.args ?? '') })
    }
    usage = c.usage_metadata ?? usage
  }
  return { content, tool_calls: [...calls.values()].map(c => ({ id: c.id, name: c.name, args: JSON.parse(c.args || '{}') })), usage_metadata: usage }
}

export interface FakeChatLunaConfig {
  /** 'platform/model' chat models loaded at start */
  models?: string[]
}

/** A ref whose `.value` is read at each access, as a ComputedRef is. */
const ref = <T>(get: () => T) => ({ get value() { return get() } })

export class FakeChatLuna extends Service {
  readonly models = new Map<string, FakeChatModel>()
  private loadedNames = new Set<string>()
  /** every read of an adapter's API key (nothing outside ChatLuna may read one) */
  keyReads = 0
  /** how often createChatModel was asked, per name */
  readonly asked = new Map<string, number>()
  /** what an adapter's config holds (koishi-plugin-chatluna-deepseek-adapter: apiKeys of [key, endpoint, enabled]) */
  readonly adapterConfig: { platform: string; readonly apiKeys: [string, string, boolean][] }

  constructor(ctx: Context, config: FakeChatLunaConfig = {}) {
    super(ctx, 'chatluna', true)
    const self = this
    this.adapterConfig = {
      platform: 'deepseek',
      get apiKeys(): [string, string, boolean][] {
        self.keyReads++
        return [['sk-chatluna-secret-key', 'https://api.deepseek.com/v1', true]]
      },
    }
    for (const name of config.models ?? ['deepseek/deepseek-chat']) this.add(name)
  }

  /** The chat model of `name` (made on first use); it answers only while loaded. */
  model(name: string): FakeChatModel {
    let m = this.models.get(name)
    if (!m) this.models.set(name, m = new FakeChatModel(name))
    return m
  }

  /** An adapter loaded the model (ChatLuna's refreshClient). */
  add(name: string): FakeChatModel {
    this.loadedNames.add(name)
    this.ctx.emit('chatluna/model-added' as any, this, name.split('/')[0])
    return this.model(name)
  }

  /** An adapter went away (a reload, its key removed): ChatLuna's unregisterClient. */
  drop(name: string): void {
    this.loadedNames.delete(name)
    this.ctx.emit('chatluna/model-removed' as any, this, name.split('/')[0])
  }

  async createChatModel(platform: string, model?: string): Promise<{ value: FakeChatModel | undefined }> {
    const name = model === undefined ? platform : `${platform}/${model}`
    this.asked.set(name, (this.asked.get(name) ?? 0) + 1)
    return ref(() => this.loadedNames.has(name) ? this.model(name) : undefined)
  }

  readonly platform = {
    listAllModels: (type: number) => ref(() => [
      ...[...this.loadedNames].map(n => ({
        platform: n.split('/')[0], name: n.slice(n.indexOf('/') + 1), type: 1, maxTokens: 64000, capabilities: ['tool_call'],
      })),
      { platform: 'openai', name: 'text-embedding-3-small', type: 2, maxTokens: 8191, capabilities: [] },
    ].filter(m => type === 0 || m.type === type)),
  }
}
