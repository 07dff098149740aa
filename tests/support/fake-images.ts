// An OpenAI images server (fakes/wire/openai-images.ts) on a port of its own: POST
// /v1/images/generations (JSON) and /v1/images/edits (multipart), each scripted, and GET
// /v1/images/files/<n>.png for the pictures a `url` answer points at. A `models[]` entry of kind
// image with `baseURL` set to `fake.baseURL` reaches it through the real AI SDK provider.
import { Endpoint, ScriptedServer } from './fakes/scripted-server'
import { imagesError, openAIImages, type ImagesReply, type ServedFiles } from './fakes/wire/openai-images'

export { fieldsOf, pictureOf, type EditBody, type ImagesReply } from './fakes/wire/openai-images'

export class FakeImages {
  readonly baseURL: string
  /** the pictures `url` answers point at, by path */
  readonly files: ServedFiles = new Map()
  readonly generations: Endpoint<ImagesReply>
  readonly edits: Endpoint<ImagesReply>
  /** how often each served file was fetched */
  readonly fetched = new Map<string, number>()

  private constructor(readonly server: ScriptedServer) {
    this.baseURL = `${server.origin}/v1`
    this.generations = server.mount('POST', '/v1/images/generations', openAIImages(this.files), 'generations')
    this.edits = server.mount('POST', '/v1/images/edits', openAIImages(this.files, true), 'edits')
    // unscripted: the default picture of the prompt, as b64_json
    this.generations.fallback({})
    this.edits.fallback({})
    server.serve('GET', /\/v1\/images\/files\/\d+\.png/, req => {
      const bytes = this.files.get(req.path)
      this.fetched.set(req.path, (this.fetched.get(req.path) ?? 0) + 1)
      return bytes ? { status: 200, bytes, contentType: 'image/png' } : imagesError(404, 'no such file', 'not_found')
    })
  }

  static async start(): Promise<FakeImages> {
    return new FakeImages(await ScriptedServer.start({ name: 'fake-images' }))
  }

  /** the model entry of kind image that draws here */
  model(o: Record<string, unknown> = {}) {
    return { id: 'painter', kind: 'image', baseURL: this.baseURL, apiKey: 'sk-img', model: 'dall-e-3', maxRetries: 0, timeoutMs: 5000, ...o }
  }

  close(): Promise<void> {
    return this.server.close()
  }
}
