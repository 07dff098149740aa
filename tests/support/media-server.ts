// A platform's media host on 127.0.0.1 (QQ's multimedia.nt.qq.com.cn, grouptalk.c2c.qq.com): it
// serves the bytes a test puts at a path, counts the fetches, and can forget a file (an expired link).
// A spec that needs another answer (slow, failing, hanging, expiring) passes its own `answer`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Answers a request no `put` file matches; `hit` counts the requests of this URL, this one included. */
export type MediaAnswer = (req: IncomingMessage, res: ServerResponse, hit: number) => void

const expired: MediaAnswer = (_req, res) => { res.writeHead(404, { 'content-type': 'text/plain' }).end('download url has expired') }

export class MediaServer {
  private files = new Map<string, { data: Buffer; type: string }>()
  /** fetches per path (the query left out) */
  readonly fetches = new Map<string, number>()
  /** requests per URL as asked for (path and query) */
  readonly hits = new Map<string, number>()
  /** requests open now, and the most that were open at once */
  readonly stats = { open: 0, peak: 0 }

  private constructor(private server: Server, readonly base: string) {}

  static async start(answer: MediaAnswer = expired): Promise<MediaServer> {
    let media: MediaServer
    const server = createServer((req, res) => media.serve(req, res, answer))
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    media = new MediaServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return media
  }

  private serve(req: IncomingMessage, res: ServerResponse, answer: MediaAnswer): void {
    const url = req.url ?? '/'
    const path = url.split('?')[0]
    this.fetches.set(path, (this.fetches.get(path) ?? 0) + 1)
    const hit = (this.hits.get(url) ?? 0) + 1
    this.hits.set(url, hit)
    this.stats.open++
    this.stats.peak = Math.max(this.stats.peak, this.stats.open)
    res.once('close', () => { this.stats.open-- })
    const file = this.files.get(path)
    if (!file) return answer(req, res, hit)
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.data.length }).end(file.data)
  }

  /** Serves `data` at `path`; returns its URL (with an rkey, as QQ's links carry). */
  put(path: string, data: Buffer, type = 'application/octet-stream'): string {
    this.files.set(path, { data, type })
    return `${this.base}${path}?rkey=CAQSKAB`
  }

  close(): Promise<void> {
    return new Promise(r => { this.server.closeAllConnections?.(); this.server.close(() => r()) })
  }
}
