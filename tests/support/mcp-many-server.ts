// The 200 tools of many-tools.ts as 14 MCP servers over streamable HTTP on 127.0.0.1, in the
// test's process: one path per domain (`/calendar`, `/rail`, ...). A call answers
// `<domain>.<tool> called with <arguments as JSON>` and is recorded.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { text } from 'node:stream/consumers'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { httpServerConfig } from './mcp-http-server'
import { DOMAINS, toolDefs, type Domain } from './many-tools'

export interface ManyMcp {
  /** config entries of the plugin's mcp.servers, one per domain */
  servers: any[]
  /** the calls the servers answered */
  calls: { server: string; tool: string; args: unknown }[]
  close(): Promise<void>
}

function domainServer(domain: Domain, calls: ManyMcp['calls']): Server {
  const server = new Server({ name: domain.id, version: '1.0.0' }, { capabilities: { tools: {} }, ...(domain.instructions ? { instructions: domain.instructions } : {}) })
  const tools = toolDefs(domain)
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    calls.push({ server: domain.id, tool: req.params.name, args: req.params.arguments })
    return { content: [{ type: 'text', text: `${domain.id}.${req.params.name} called with ${JSON.stringify(req.params.arguments ?? {})}` }] }
  })
  return server
}

export async function startManyMcp(domains: Domain[] = DOMAINS): Promise<ManyMcp> {
  const byId = new Map(domains.map(d => [d.id, d]))
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const sockets = new Set<Socket>()
  const calls: ManyMcp['calls'] = []
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const domain = byId.get((req.url ?? '').split('/')[1] ?? '')
    if (!domain) return void res.writeHead(404).end('no such server')
    const body = req.method === 'POST' ? JSON.parse(await text(req) || 'null') : undefined
    const id = req.headers['mcp-session-id'] as string | undefined
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      if (id || !isInitializeRequest(body)) return void res.writeHead(id ? 404 : 400).end('no session')
      const t = transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: sid => { sessions.set(sid, t) } })
      t.onclose = () => { if (t.sessionId) sessions.delete(t.sessionId) }
      await domainServer(domain, calls).connect(t)
    }
    await transport.handleRequest(req, res, body)
  }
  const server = createServer((req, res) => {
    handle(req, res).catch(e => { if (!res.headersSent) res.writeHead(500).end(String(e?.message ?? e)) })
  })
  server.on('connection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    servers: domains.map(d => httpServerConfig(d.id, `${base}/${d.id}`)),
    calls,
    async close() {
      await Promise.all([...sessions.values()].map(t => t.close().catch(() => {})))
      sockets.forEach(s => s.destroy())
      await new Promise<void>(r => server.close(() => r()))
    },
  }
}
