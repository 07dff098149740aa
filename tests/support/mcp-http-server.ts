// The test MCP server over streamable HTTP on 127.0.0.1 (a free port), in the test's process:
// one SDK server and transport per session, as the SDK's examples do.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { text } from 'node:stream/consumers'
import { join } from 'node:path'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { testServer } from './mcp-tools'

export interface HttpMcp {
  url: string
  /** requests answered 401 for a missing or wrong Authorization header */
  refused: number
  close(): Promise<void>
}

export async function startHttpMcp(o: { authorization?: string; port?: number } = {}): Promise<HttpMcp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const sockets = new Set<Socket>()
  const state = { refused: 0 }
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (o.authorization && req.headers.authorization !== o.authorization) {
      state.refused++
      res.writeHead(401).end('unauthorized')
      return
    }
    const body = req.method === 'POST' ? JSON.parse(await text(req) || 'null') : undefined
    const id = req.headers['mcp-session-id'] as string | undefined
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      if (id || !isInitializeRequest(body)) {
        res.writeHead(id ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no session' }, id: null }))
        return
      }
      const t = transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: sid => { sessions.set(sid, t) } })
      t.onclose = () => { if (t.sessionId) sessions.delete(t.sessionId) }
      await testServer({ transport: 'http' }).connect(t)
    }
    await transport.handleRequest(req, res, body)
  }
  const server = createServer((req, res) => {
    handle(req, res).catch(e => { if (!res.headersSent) res.writeHead(500).end(String(e?.message ?? e)) })
  })
  server.on('connection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>(r => server.listen(o.port ?? 0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get refused() { return state.refused },
    async close() {
      await Promise.all([...sessions.values()].map(t => t.close().catch(() => {})))
      sockets.forEach(s => s.destroy())
      await new Promise<void>(r => server.close(() => r()))
    },
  }
}

/** A config entry that starts the stdio test server as a child process. */
export function stdioServerConfig(id: string, extra: Record<string, unknown> = {}) {
  return {
    id, transport: 'stdio', command: process.execPath,
    args: ['-r', require.resolve('esbuild-register'), join(__dirname, 'mcp-stdio-server.ts')],
    env: {}, url: '', headers: {}, timeoutMs: 20000, ...extra,
  }
}

export function httpServerConfig(id: string, url: string, extra: Record<string, unknown> = {}) {
  return { id, transport: 'http', command: '', args: [] as string[], env: {}, url, headers: {}, timeoutMs: 20000, ...extra }
}
