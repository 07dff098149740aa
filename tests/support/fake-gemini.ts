// A scriptable Gemini API server for integration tests: the scripted server
// (fakes/scripted-server.ts) with the Gemini wire (fakes/wire/gemini.ts) on
// POST /v1beta/models/<model>:generateContent and :streamGenerateContent (one RegExp route), and a
// model list on GET /v1beta/models. The real @ai-sdk/google provider talks to it with
// `createGoogleGenerativeAI({ baseURL: fake.baseURL, apiKey })`; the wire refuses what Gemini
// refuses (a Gemini 3 call without its thought signature) and reports implicit cache hits.
import { EndpointFake } from './fakes/endpoint-fake'
import { Endpoint, Guard as GuardOf, Scripted as ScriptedOf, ScriptedServer } from './fakes/scripted-server'
import { gemini, GEMINI_ROUTE, GeminiOptions, GeminiReply, GeminiWire, IssuedSignature } from './fakes/wire/gemini'

export type { GeminiCall, GeminiOptions, GeminiReply, GeminiUsage, IssuedSignature } from './fakes/wire/gemini'
export {
  CORRUPTED_SIGNATURE, contentsOf, estimateTokens, functionCallsOf, isStreamRequest, missingSignature, modelOf, promptBlocks, promptTokens,
  SKIP_SIGNATURE,
} from './fakes/wire/gemini'

export type Guard = GuardOf<GeminiReply>
export type Scripted = ScriptedOf<GeminiReply>

export class FakeGemini extends EndpointFake<GeminiReply> {
  /** `http://127.0.0.1:<port>/v1beta`, the provider's baseURL */
  readonly baseURL: string
  /** both generate routes: script, guards and requests */
  readonly generate: Endpoint<GeminiReply>
  private wire: GeminiWire

  private constructor(server: ScriptedServer, o: GeminiOptions, wire = gemini(o)) {
    const generate = server.mount('POST', GEMINI_ROUTE, wire, 'generate')
    super(server, generate)
    this.generate = generate
    this.wire = wire
    this.baseURL = `${server.origin}/v1beta`
    server.serve('GET', '/v1beta/models', () => ({
      status: 200,
      json: { models: ['gemini-3-pro-preview', 'gemini-2.5-flash'].map((id) => ({ name: `models/${id}`, supportedGenerationMethods: ['generateContent'] })) },
    }))
  }

  static async start(o: GeminiOptions = {}): Promise<FakeGemini> {
    return new FakeGemini(await ScriptedServer.start({ name: 'fake-gemini' }), o)
  }

  /** Every thought signature handed out, in order (cleared by reset). */
  get signatures(): IssuedSignature[] {
    return this.wire.issued
  }
}
