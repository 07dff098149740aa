// A scriptable OpenAI-compatible chat-completions server for integration tests: the scripted
// server (fakes/scripted-server.ts) with the OpenAI chat wire (fakes/wire/openai-chat.ts) on
// POST /v1/chat/completions and a model list on GET /v1/models. The real AI SDK provider talks
// to it over HTTP on 127.0.0.1; tests script the replies and assert on every request body sent.
// The Responses API (fakes/wire/openai-responses.ts) is mounted on the same port by responses().
import { EndpointFake } from './fakes/endpoint-fake'
import { Endpoint, Guard as GuardOf, RecordedRequest, Scripted as ScriptedOf, ScriptedServer } from './fakes/scripted-server'
import { ChatReply, openAIChat, openAIModels } from './fakes/wire/openai-chat'
import { EmbeddingsReply, openAIEmbeddings } from './fakes/wire/openai-embeddings'
import { openAISpeech, openAITranscriptions, SpeechReply, TranscriptionReply } from './fakes/wire/openai-audio'
import { openAIResponses, ResponsesReply, ResponsesWire } from './fakes/wire/openai-responses'

export type { RecordedRequest } from './fakes/scripted-server'
export type { FakeToolCall } from './fakes/wire/openai-chat'
export type { SpeechReply, TranscriptionBody, TranscriptionFile, TranscriptionReply } from './fakes/wire/openai-audio'
export { speechSeconds, transcriptionOf } from './fakes/wire/openai-audio'
export type { IssuedReasoning, ResponsesReply, ResponsesUsage } from './fakes/wire/openai-responses'
export { functionCallOutputsOf, inputOf, itemsOf, reasoningInputOf } from './fakes/wire/openai-responses'
export { imagePartsOf, lastToolValues, lastUserText, userTexts, messagesOf, toolNamesOf, toolResultsOf } from './fakes/wire/openai-chat'

export type FakeReply = ChatReply
export type Guard = GuardOf<FakeReply>
export type Scripted = ScriptedOf<FakeReply>

export class FakeOpenAI extends EndpointFake<FakeReply> {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string
  /** the chat-completions route: its script, guards and requests */
  readonly chat: Endpoint<FakeReply>
  private embeddingsRoute: Endpoint<EmbeddingsReply> | undefined
  private transcriptionsRoute: Endpoint<TranscriptionReply> | undefined
  private speechRoute: Endpoint<SpeechReply> | undefined
  private responsesRoute: { endpoint: Endpoint<ResponsesReply>; wire: ResponsesWire } | undefined

  private constructor(server: ScriptedServer, chat = server.mount('POST', '/v1/chat/completions', openAIChat(), 'chat')) {
    super(server, chat)
    this.chat = chat
    this.baseURL = `${server.origin}/v1`
    server.serve('GET', '/v1/models', () => openAIModels())
  }

  static async start(): Promise<FakeOpenAI> {
    return new FakeOpenAI(await ScriptedServer.start({ name: 'fake-openai' }))
  }

  /** POST /v1/embeddings on the same port (mounted on first use), scripted like the chat route. */
  embeddings(): Endpoint<EmbeddingsReply> {
    return this.embeddingsRoute ??= this.server.mount('POST', '/v1/embeddings', openAIEmbeddings(), 'embeddings')
  }

  /** POST /v1/audio/transcriptions (multipart; mounted on first use); refuses what OpenAI refuses before the script. */
  transcriptions(): Endpoint<TranscriptionReply> {
    return this.transcriptionsRoute ??= this.server.mount('POST', '/v1/audio/transcriptions', openAITranscriptions(), 'transcriptions')
  }

  /** POST /v1/audio/speech (mounted on first use); `{}` answers a tone as long as the input (wav, pcm) or a format's first bytes. */
  speech(): Endpoint<SpeechReply> {
    return this.speechRoute ??= this.server.mount('POST', '/v1/audio/speech', openAISpeech(), 'speech')
  }

  /** POST /v1/responses, the Responses API (mounted on first use); refuses what stateless reasoning refuses. */
  responses(): Endpoint<ResponsesReply> {
    return this.responsesWire().endpoint
  }

  /** The reasoning items the Responses route issued (cleared by reset). */
  get issuedReasoning() {
    return this.responsesWire().wire.reasoning
  }

  private responsesWire() {
    if (this.responsesRoute) return this.responsesRoute
    const wire = openAIResponses()
    return this.responsesRoute = { wire, endpoint: this.server.mount('POST', '/v1/responses', wire, 'responses') }
  }







}
