// A SiliconFlow images server (fakes/wire/siliconflow-images.ts) on a port of its own: POST
// /v1/images/generations, scripted, and GET /files/<n>.png for the links its answers hold (counted;
// 404 once scripted as expired). A `models[]` entry of kind image with `provider: siliconflow` and
// `baseURL` set to `fake.baseURL` reaches it.
import { Endpoint, ScriptedServer } from './fakes/scripted-server'
import { siliconFlowImages, type LinkedFiles, type SiliconFlowReply } from './fakes/wire/siliconflow-images'

export { inputOf, requestOf, SIZES, type SiliconFlowReply } from './fakes/wire/siliconflow-images'

export class FakeSiliconFlow {
  readonly baseURL: string
  readonly files: LinkedFiles = new Map()
  readonly generations: Endpoint<SiliconFlowReply>
  /** how often each link was fetched, by path */
  readonly fetched = new Map<string, number>()

  private constructor(readonly server: ScriptedServer) {
    this.baseURL = `${server.origin}/v1`
    this.generations = server.mount('POST', '/v1/images/generations', siliconFlowImages(this.files), 'generations')
    this.generations.fallback({})
    server.serve('GET', /\/files\/\d+\.png/, req => {
      const file = this.files.get(req.path)
      this.fetched.set(req.path, (this.fetched.get(req.path) ?? 0) + 1)
      // OSS answers an expired signed link with an XML error page
      if (!file || file.expired) return { status: 404, bytes: Buffer.from('<Error><Code>NoSuchKey</Code></Error>'), contentType: 'application/xml' }
      return { status: 200, bytes: file.bytes, contentType: 'image/png' }
    })
  }

  static async start(): Promise<FakeSiliconFlow> {
    return new FakeSiliconFlow(await ScriptedServer.start({ name: 'fake-siliconflow' }))
  }

  /** the model entry of kind image that draws here */
  model(o: Record<string, unknown> = {}) {
    return { id: 'kolors', kind: 'image', provider: 'siliconflow', baseURL: this.baseURL, apiKey: 'sk-sf', model: 'Kwai-Kolors/Kolors', maxRetries: 0, timeoutMs: 5000, ...o }
  }

  /** every link fetch, in all */
  get fetches(): number {
    return [...this.fetched.values()].reduce((a, b) => a + b, 0)
  }

  close(): Promise<void> {
    return this.server.close()
  }
}
