// One MCP server (SPEC §14): started with the plugin, restarted after a crash with backoff,
// re-listing its tools when it announces a change, stopped with the plugin (its child process
// with it). A call made while the server (re)starts waits for it, within the call's timeout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Tool as McpToolDef,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from '../config/types'
import type { Clock, Timer } from '../util/clock'
import { clip } from '../util/clip'
import { describeError } from '../util/describe-error'
import type { Logger } from '../util/logger'
import { Backoff, type BackoffOptions } from './backoff'
import { openTransport, type ServerTransport } from './transport'

export type McpState = 'starting' | 'ready' | 'retrying' | 'stopped'

export interface McpServerStatus {
  id: string
  state: McpState
  tools: number
  /** why the server is down (retrying) */
  error?: string
  /** ms until the next start attempt (retrying) */
  retryInMs?: number
  /** the child process (stdio) */
  pid?: number
}

export interface ConnectionDeps {
  logger: Logger
  clock: Clock
  backoff?: BackoffOptions
}

interface Session {
  generation: number
  client: Client
  transport: ServerTransport
}

const CLIENT_INFO = { name: 'koishi-plugin-kotodama', version: '0.1.0' }
const STDERR_TAIL = 5
/** A start may fetch and build the server (`npx -y …`): it gets at least this long, whatever one call gets. */
const START_TIMEOUT_MS = 60_000

export class McpConnection {
  state: McpState = 'stopped'
  /** the last list the server gave; kept while it restarts */
  tools: McpToolDef[] = []
  /** what the server says it is for (its `instructions`), for the system prompt's line when tools are searched (SPEC §18) */
  instructions?: string
  /** called whenever the tool list changed */
  onTools?: (tools: McpToolDef[]) => void
  /** called whenever `status()` may read differently (the console page refreshes its block) */
  onChange?: () => void
  private session?: Session
  private generation = 0
  private backoff: Backoff
  private timer?: Timer
  private retryAt = 0
  private readyAt = 0
  private lastError?: string
  private stderrTail: string[] = []
  private waiters = new Set<(error?: Error) => void>()
  private refreshing?: Promise<void>
  private closing = new Set<Promise<void>>()

  constructor(readonly config: McpServerConfig, private deps: ConnectionDeps) {
    this.backoff = new Backoff(deps.backoff)
  }

  get id(): string {
    return this.config.id
  }

  start(): void {
    if (this.state !== 'stopped') return
    void this.open()
  }

  status(): McpServerStatus {
    const s: McpServerStatus = { id: this.id, state: this.state, tools: this.tools.length }
    if (this.state === 'retrying') Object.assign(s, { error: this.lastError, retryInMs: Math.max(0, this.retryAt - this.deps.clock.now()) })
    const pid = this.session?.transport.pid()
    if (pid !== undefined) s.pid = pid
    return s
  }

  private async open(): Promise<void> {
    const generation = ++this.generation
    this.state = 'starting'
    this.stderrTail = []
    this.changed()
    try {
      const transport = openTransport(this.config, line => this.stderr(line))
      const client = new Client(CLIENT_INFO, { capabilities: {} })
      this.session = { generation, client, transport }
      client.onclose = () => this.lost(generation, this.config.transport === 'stdio' ? 'the server process exited' : 'the connection closed')
      client.onerror = e => this.deps.logger.debug('MCP server "%s": %s', this.id, e?.message ?? e)
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { this.refresh(generation) })
      const timeout = Math.max(this.config.timeoutMs, START_TIMEOUT_MS)
      await client.connect(transport.transport, { timeout })
      const tools = await listTools(client, timeout)
      if (generation !== this.generation) return
      this.instructions = client.getInstructions()
      this.state = 'ready'
      this.readyAt = this.deps.clock.monotonic()
      this.lastError = undefined
      this.deps.logger.info('MCP server "%s" is ready with %d tool(s)', this.id, tools.length)
      this.setTools(tools)
      this.settle()
    } catch (e) {
      this.lost(generation, describeError(e))
    }
  }

  /** The session of `generation` ended (a crash, a failed start, a broken link): retry later. */
  private lost(generation: number, reason: string): void {
    if (generation !== this.generation || this.state === 'stopped' || this.state === 'retrying') return
    const wasReady = this.state === 'ready'
    if (wasReady) this.backoff.ended(this.deps.clock.monotonic() - this.readyAt)
    this.closeSession()
    const tail = this.stderrTail.length ? ` (stderr: ${this.stderrTail.join(' | ')})` : ''
    this.lastError = clip(`${reason}${tail}`, 500)
    const delay = this.backoff.take()
    this.state = 'retrying'
    this.retryAt = this.deps.clock.now() + delay
    this.changed()
    this.deps.logger.warn(wasReady ? 'MCP server "%s" stopped: %s; restarting in %d s' : 'MCP server "%s" could not start: %s; next attempt in %d s',
      this.id, this.lastError, delay / 1000)
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined
      if (this.state === 'retrying') void this.open()
    }, delay).unref()
    this.settle(new Error(`MCP server "${this.id}" is down (${this.lastError}); the next attempt to start it is in ${Math.ceil(delay / 1000)} s`))
  }

  private closeSession(): void {
    const s = this.session
    this.session = undefined
    if (!s) return
    s.client.onclose = undefined
    const closing = s.client.close().catch(() => {})
    this.closing.add(closing)
    void closing.then(() => this.closing.delete(closing))
  }

  private stderr(line: string): void {
    if (!line.trim()) return
    this.deps.logger.debug('MCP server "%s" stderr: %s', this.id, line)
    this.stderrTail.push(clip(line.trim(), 200))
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift()
  }

  /** Re-lists the tools after the server announced a change; one listing at a time, the last wins. */
  private refresh(generation: number): void {
    const run = async () => {
      const session = this.session
      if (!session || session.generation !== generation || this.state !== 'ready') return
      try {
        const tools = await listTools(session.client, this.config.timeoutMs)
        if (this.session === session && this.state === 'ready') this.setTools(tools)
      } catch (e: any) {
        this.deps.logger.warn('MCP server "%s": its changed tool list could not be read: %s', this.id, describeError(e))
      }
    }
    const next = (this.refreshing ?? Promise.resolve()).then(run)
    this.refreshing = next
    void next.then(() => { if (this.refreshing === next) this.refreshing = undefined })
  }

  private setTools(tools: McpToolDef[]): void {
    this.tools = tools
    try {
      this.onTools?.(tools)
    } catch (e: any) {
      this.deps.logger.error('MCP server "%s": its tools could not be offered: %s', this.id, e?.message ?? e)
    }
    this.changed()
  }

  private changed(): void {
    try {
      this.onChange?.()
    } catch {}
  }

  /** Wakes the calls waiting for the server: ready, or the attempt failed. */
  private settle(error?: Error): void {
    const waiters = [...this.waiters]
    this.waiters.clear()
    for (const w of waiters) w(error)
  }

  /** The ready client; waits while the server (re)starts, within `ms`. */
  private async client(ms: number, signal?: AbortSignal): Promise<Session> {
    const started = this.deps.clock.monotonic()
    for (;;) {
      if (this.state === 'ready' && this.session) return this.session
      if (this.state === 'stopped') throw new Error(`MCP server "${this.id}" is stopped`)
      const left = ms - (this.deps.clock.monotonic() - started)
      if (this.state === 'retrying' && this.retryAt - this.deps.clock.now() > left) {
        const seconds = Math.ceil((this.retryAt - this.deps.clock.now()) / 1000)
        throw new Error(`MCP server "${this.id}" is down (${this.lastError}); the next attempt to start it is in ${seconds} s`)
      }
      // the next change is the outcome of the running or next attempt: ready, or its error
      await this.change(left, signal)
    }
  }

  private change(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        this.waiters.delete(done)
        timer.cancel()
        signal?.removeEventListener('abort', abort)
        error ? reject(error) : resolve()
      }
      const abort = () => done(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      const timer = this.deps.clock.setTimeout(() => done(new Error(`MCP server "${this.id}" did not start within ${ms} ms`)), Math.max(0, ms))
      this.waiters.add(done)
      if (signal?.aborted) abort()
      else signal?.addEventListener('abort', abort, { once: true })
    })
  }

  async call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const t0 = this.deps.clock.monotonic()
    const session = await this.client(this.config.timeoutMs, signal)
    const timeout = Math.max(1, this.config.timeoutMs - (this.deps.clock.monotonic() - t0))
    let result: CallToolResult
    try {
      result = await session.client.callTool({ name, arguments: args }, undefined, { signal, timeout }) as CallToolResult
    } catch (e) {
      throw this.failure(session, e, signal)
    }
    // a change announced during the call is listed before the model's next step
    await this.refreshing
    return result
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const session = await this.client(this.config.timeoutMs, signal)
    try {
      return await session.client.readResource({ uri }, { signal, timeout: this.config.timeoutMs })
    } catch (e) {
      throw this.failure(session, e, signal)
    }
  }

  /** What the model is told when a request failed; a broken link also restarts the server. */
  private failure(session: Session, e: any, signal?: AbortSignal): Error {
    if (signal?.aborted) return e
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
      return new Error(`MCP server "${this.id}" did not answer within ${this.config.timeoutMs} ms`)
    }
    const broken = !(e instanceof McpError) || e.code === ErrorCode.ConnectionClosed
    if (!broken) {
      // the server's message travels as "MCP error <code>: <message>" and the client adds the prefix again
      const err: Error & { mcpCode?: number } = new Error(`MCP server "${this.id}": ${String(e.message).replace(/^(MCP error -?\d+: )\1+/, '$1')}`)
      err.mcpCode = e.code
      return err
    }
    this.lost(session.generation, describeError(e))
    const seconds = Math.ceil(Math.max(0, this.retryAt - this.deps.clock.now()) / 1000)
    const again = this.state === 'retrying' ? `; it restarts in ${seconds} s, then the call can be made again` : ''
    return new Error(`MCP server "${this.id}" stopped during the call (${this.lastError ?? describeError(e)})${again}`)
  }

  /** Stops the server; resolves when its child process (stdio) is gone. */
  async stop(): Promise<void> {
    this.state = 'stopped'
    this.changed()
    this.generation++
    this.timer?.cancel()
    this.timer = undefined
    this.closeSession()
    this.settle(new Error(`MCP server "${this.id}" is stopped`))
    await Promise.all([...this.closing])
  }
}

async function listTools(client: Client, timeout: number): Promise<McpToolDef[]> {
  const tools: McpToolDef[] = []
  let cursor: string | undefined
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor)
  return tools
}
