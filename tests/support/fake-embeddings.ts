// An OpenAI-compatible /v1/embeddings server for the recall tests: the scripted server
// (fakes/scripted-server.ts) with the OpenAI embeddings wire (fakes/wire/openai-embeddings.ts).
// Each text gets the vector a test's function gives it; `failing` makes every request a 500.
import { Endpoint, ScriptedServer } from './fakes/scripted-server'
import { EmbeddingsReply, inputsOf, openAIEmbeddings } from './fakes/wire/openai-embeddings'

export class FakeEmbeddings {
  failing = false
  readonly baseURL: string
  readonly endpoint: Endpoint<EmbeddingsReply>

  private constructor(private server: ScriptedServer, public vectorOf: (text: string) => number[]) {
    this.baseURL = `${server.origin}/v1`
    this.endpoint = server.mount('POST', '/v1/embeddings', openAIEmbeddings('fake-embeddings'), 'embeddings')
      .fallback(() => this.failing
        ? { status: 500, error: 'the embeddings server is down', errorType: 'server_error' }
        : { vectorOf: (t) => this.vectorOf(t) })
  }

  static async start(vectorOf: (text: string) => number[]): Promise<FakeEmbeddings> {
    return new FakeEmbeddings(await ScriptedServer.start({ name: 'fake-embeddings' }), vectorOf)
  }

  /** Every request's model and texts, failed ones included. */
  get requests(): { model: string; input: string[] }[] {
    return this.endpoint.requests.map(r => ({ model: r.body?.model, input: inputsOf(r) }))
  }

  close(): Promise<void> {
    return this.server.close()
  }
}
