// A platform's media host on 127.0.0.1 (QQ's multimedia.nt.qq.com.cn, grouptalk.c2c.qq.com): it
// serves the bytes a test puts at a path, counts the fetches, and can forget a file (an expired link).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export class MediaServer {
  private files = new Map<string, { data: Buffer; type: string }>()
  /** fetches per path */
  readonly fetches = new Map<string, number>()

  private constructor(private server: Server, readonly base: string) {}

  static async start(): Promise<MediaServer> {
    let media: MediaServer
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]
      media.fetches.set(path, (media.fetches.get(path) ?? 0) + 1)
      const file = media.files.get(path)
      if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('download url has expired')
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.data.length }).end(file.data)
    })
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    media = new MediaServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    return media
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
