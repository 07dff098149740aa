// The SDK transport of one server (SPEC §14): a child process over stdio, or streamable HTTP.
// A child's stderr is read line by line for the log instead of being inherited, so nothing it
// prints (a secret from its env included) bypasses the plugin's redacting logger.
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerConfig } from '../config/types'

export interface ServerTransport {
  transport: Transport
  /** the child's process id (stdio, once started) */
  pid(): number | undefined
}

export function openTransport(c: McpServerConfig, onStderr: (line: string) => void): ServerTransport {
  if (c.transport === 'http') {
    const transport = new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: { ...c.headers } } })
    return { transport, pid: () => undefined }
  }
  const transport = new StdioClientTransport({ command: c.command, args: [...(c.args ?? [])], env: { ...c.env }, stderr: 'pipe' })
  const stderr = transport.stderr as Readable | null
  if (stderr) createInterface({ input: stderr, crlfDelay: Infinity }).on('line', onStderr)
  return { transport, pid: () => transport.pid ?? undefined }
}
