// An OpenAI-compatible /v1/embeddings server for the recall tests: each text gets the vector a
// test's function gives it; `failing` makes every request a 500. Requests are recorded.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { text } from 'node:stream/consumers'

export class FakeEmbeddings {
  readonly requests: { model: string; input: string[] }[] = []
  failing = false

  private constructor(private server: Server, readonly baseURL: string, public vectorOf: (text: string) => number[]) {}

  static start(vectorOf: (text: string) => number[]): Promise<FakeEmbeddings> {
    return new Promise((resolve, reject) => {
      let fake: FakeEmbeddings
      const server = createServer(async (req, res) => {
        const body = JSON.parse((await text(req)) || '{}')
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(JSON.stringify(value))
        }
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: `no route ${req.method} ${req.url}` } })
        const input: string[] = Array.isArray(body.input) ? body.input : [body.input]
        fake.requests.push({ model: body.model, input })
        if (fake.failing) return send(500, { error: { message: 'the embeddings server is down', type: 'server_error' } })
        send(200, {
          object: 'list', model: body.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: fake.vectorOf(t) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        })
      })
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        fake = new FakeEmbeddings(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, vectorOf)
        resolve(fake)
      })
    })
  }

  close(): Promise<void> {
    return new Promise(resolve => {
      this.server.close(() => resolve())
      this.server.closeAllConnections?.()
    })
  }
}
