// An OpenAI-compatible /v1/embeddings server that reports a fixed token count per request (the
// usage tests): fake-embeddings.ts counts one token per text, too few to tell counts apart.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { text } from 'node:stream/consumers'

export interface EmbeddingsWithUsage {
  baseURL: string
  requests: string[][]
  close(): Promise<void>
}

export function embeddingsReporting(tokens: number): Promise<EmbeddingsWithUsage> {
  const requests: string[][] = []
  const server = createServer(async (req, res) => {
    const body = JSON.parse((await text(req)) || '{}')
    const input: string[] = Array.isArray(body.input) ? body.input : [body.input]
    requests.push(input)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({
      object: 'list', model: body.model,
      data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, 0, 0] })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }))
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve({
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      requests,
      close: () => new Promise<void>(done => { server.close(() => done()); server.closeAllConnections?.() }),
    }))
  })
}
