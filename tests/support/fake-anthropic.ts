// A scriptable imitation of Anthropic's Messages API for integration tests: the scripted server
// (fakes/scripted-server.ts) with the Anthropic wire (fakes/wire/anthropic-messages.ts) on
// POST /v1/messages. The real @ai-sdk/anthropic talks to it over HTTP on 127.0.0.1
// (`createAnthropic({ baseURL: fake.baseURL, apiKey })`); tests script replies, and the fake refuses
// what Anthropic refuses (breakpoints, thinking signatures, tool pairing) and accounts its prompt cache.
import { EndpointFake } from './fakes/endpoint-fake'
import { Endpoint, Guard as GuardOf, RecordedRequest, Scripted as ScriptedOf, ScriptedServer } from './fakes/scripted-server'
import { AnthropicReply, AnthropicWire, AnthropicWireOptions, anthropicMessages } from './fakes/wire/anthropic-messages'
import { PromptCache } from './fakes/wire/anthropic-cache'

export type { RecordedRequest } from './fakes/scripted-server'
export type { AnthropicReply, AnthropicToolCall, AnthropicUsage } from './fakes/wire/anthropic-messages'
export type { CacheUsage, Segment } from './fakes/wire/anthropic-cache'
export { anthropicError, lastUserText, messagesOf, systemTextOf, toolNamesOf, toolResultsOf } from './fakes/wire/anthropic-messages'
export { blockTokens, estimateTokens, LOOKBACK_BLOCKS, segmentsOf } from './fakes/wire/anthropic-cache'
export { MAX_BREAKPOINTS } from './fakes/wire/anthropic-rules'

export type Guard = GuardOf<AnthropicReply>
export type Scripted = ScriptedOf<AnthropicReply>

export interface FakeAnthropicOptions extends AnthropicWireOptions {
  /** when set, a request whose `x-api-key` differs is a 401 authentication_error */
  apiKey?: string
}

export class FakeAnthropic extends EndpointFake<AnthropicReply> {
  /** `http://127.0.0.1:<port>/v1`, for `createAnthropic({ baseURL })` */
  readonly baseURL: string
  /** the messages route: its script, guards and requests */
  readonly messages: Endpoint<AnthropicReply>
  private readonly wire: AnthropicWire

  private constructor(server: ScriptedServer, private o: FakeAnthropicOptions, wire = anthropicMessages(o)) {
    const messages = server.mount('POST', '/v1/messages', wire, 'messages')
    super(server, messages)
    this.messages = messages
    this.wire = wire
    this.baseURL = `${server.origin}/v1`
    this.guardKey()
  }

  static async start(o: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    return new FakeAnthropic(await ScriptedServer.start({ name: o.name ?? 'fake-anthropic' }), o)
  }

  /** The server's prompt cache: `cachedPrefixes()`, `peek(body)`, `advance(ms)`. */
  get cache(): PromptCache {
    return this.wire.cache
  }


  /** The signature this fake issues for a thinking text (for hand-built requests). */
  signature(thinking: string): string {
    return this.wire.sign(thinking)
  }

  /** A redacted_thinking `data` this fake accepts. */
  redactedData(thinking: string): string {
    return this.wire.redact(thinking)
  }

  /** Moves the cache's clock on: a 5-minute entry is gone after `advance(5 * 60_000)`. */
  advance(ms: number): this {
    this.wire.cache.advance(ms)
    return this
  }






  /** Forgets scripts, guards, requests and the prompt cache; the signing key stays. */
  override reset(): void {
    super.reset()
    this.guardKey()
  }


  private guardKey() {
    const key = this.o.apiKey
    if (key === undefined) return
    const refused: AnthropicReply = { status: 401, errorType: 'authentication_error', error: 'invalid x-api-key' }
    this.messages.guard((req) => (req.headers['x-api-key'] === key ? undefined : refused))
  }
}
