// The MCP server the tests talk to, built with the SDK's server API: one tool per behaviour the
// plugin must handle (text, long text, media, resources, errors, a crash, a changing list).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { tinyPng } from './tiny-png'

/** a 1x1 PNG */
export const PNG_BASE64 = tinyPng(0, 1, 1).toString('base64')
export const NOTE_URI = 'note://notes/hello.txt'
export const NOTE_TEXT = 'hello from a resource\nsecond line'

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] })

export function testServer(o: { transport: 'stdio' | 'http' }): McpServer {
  const server = new McpServer({ name: 'kotodama-test', version: '1.0.0' })
  server.registerTool('echo', { description: 'Echo a text back', inputSchema: { text: z.string().describe('what to echo') } },
    async ({ text: t }) => text(`echo: ${t}`))
  server.registerTool('lines', { description: 'Numbered lines', inputSchema: { count: z.number().int().min(1) } },
    async ({ count }) => text(Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n')))
  server.registerTool('image', { description: 'A tiny picture' },
    async () => ({ content: [{ type: 'text' as const, text: 'a picture:' }, { type: 'image' as const, data: PNG_BASE64, mimeType: 'image/png' }] }))
  server.registerTool('sound', { description: 'A short sound' },
    async () => ({ content: [{ type: 'audio' as const, data: Buffer.from('RIFF....WAVEfmt ').toString('base64'), mimeType: 'audio/wav' }] }))
  server.registerResource('hello', NOTE_URI, { mimeType: 'text/plain' }, async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: NOTE_TEXT }] }))
  server.registerResource('dot', 'note://notes/dot.png', { mimeType: 'image/png' }, async uri => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG_BASE64 }] }))
  server.registerTool('link', { description: 'Points at a note' },
    async () => ({ content: [{ type: 'resource_link' as const, uri: NOTE_URI, name: 'hello.txt', mimeType: 'text/plain' }] }))
  server.registerTool('embedded', { description: 'Carries a note' },
    async () => ({ content: [{ type: 'resource' as const, resource: { uri: NOTE_URI, mimeType: 'text/plain', text: NOTE_TEXT } }] }))
  server.registerTool('fail', { description: 'Always fails' },
    async () => ({ isError: true, content: [{ type: 'text' as const, text: 'the disk is on fire' }] }))
  server.registerTool('slow', { description: 'Answers after a while', inputSchema: { ms: z.number(), tag: z.string() } },
    async ({ ms, tag }) => { await new Promise(r => setTimeout(r, ms)); return text(`${tag} after ${ms} ms`) })
  server.registerTool('stats', { description: 'Counts, as structured content only', outputSchema: { count: z.number() } },
    async () => ({ content: [], structuredContent: { count: 3 } }))
  server.registerTool('pid', { description: 'The server process id' }, async () => text(String(process.pid)))
  server.registerTool('crash', { description: 'Exits the server process mid-call' }, async () => {
    if (o.transport === 'stdio') process.exit(3)
    return new Promise(() => {})
  })
  // stdio: an env value; http: a request header — both configured as secrets
  server.registerTool('secret', { description: 'Shows a configured secret', inputSchema: { name: z.string() } }, async ({ name }, extra) => {
    const value = o.transport === 'stdio' ? process.env[name] : String(extra.requestInfo?.headers?.[name.toLowerCase()] ?? '')
    if (o.transport === 'stdio') process.stderr.write(`secret ${name} is ${value}\n`)
    return text(`${name}=${value}`)
  })
  server.registerTool('grow', { description: 'Adds the tool "late"' }, async () => {
    server.registerTool('late', { description: 'Arrived later' }, async () => text('late tool here'))
    return text('grown')
  })
  return server
}
