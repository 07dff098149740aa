// A scriptable OpenAI-compatible chat-completions server for integration tests.
// The real AI SDK provider talks to it over HTTP on 127.0.0.1; tests script the
// replies and assert on every request body the SDK sent.
import { text } from 'node:stream/consumers'
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http'
import { AddressInfo, Socket } from 'node:net'

// Captured at module load: tests install @sinonjs/fake-timers, and the server's
// own waiting (delayMs, waitForRequests timeouts) must keep using real time.
const realSetTimeout = globalThis.setTimeout
const realClearTimeout = globalThis.clearTimeout

export interface FakeToolCall {
  name: string
  // an object is JSON-stringified on the wire; a string is sent as-is (lets tests send malformed JSON)
  arguments: unknown
  id?: string
}

export interface FakeReply {
  content?: string
  reasoning?: string
  toolCalls?: FakeToolCall[]
  status?: number
  error?: string
  delayMs?: number
  hang?: boolean
  /** extra response headers (e.g. `retry-after-ms` on a 429), on errors and successes alike */
  headers?: Record<string, string>
  /**
   * The connection is closed mid-body: the headers promise the whole body (content-length, or a
   * chunked event stream), then only `truncateAt` bytes (default: half) arrive before the socket
   * is destroyed.
   */
  cut?: boolean
  /**
   * Only the first `truncateAt` bytes of the body are sent. Without `cut` the response ends
   * cleanly (well-formed HTTP whose content is broken JSON, or an event stream that stops without
   * its finish chunk and `[DONE]`); with `cut` the connection is destroyed instead.
   */
  truncateAt?: number
  /**
   * The usage object: `false` leaves it out; an object sets fields (e.g. reasoning or cached
   * tokens) over the estimated counts. Default: estimated prompt and completion tokens.
   */
  usage?: false | { prompt_tokens?: number; completion_tokens?: number; reasoning_tokens?: number; cached_tokens?: number; prompt_cache_hit_tokens?: number }
  /** sent as the whole JSON body with `status` (default 200), e.g. a relay's 200 with an `{"error": ...}` body */
  body?: unknown
}

/** A server rule checked before the script: a reply it returns is sent instead, and the script is not consumed. */
export type Guard = (req: RecordedRequest) => FakeReply | undefined

export interface RecordedRequest {
  index: number
  path: string
  headers: Record<string, string | string[]>
  body: any
}

export type Scripted = FakeReply | ((req: RecordedRequest) => FakeReply | Promise<FakeReply>)

interface Waiter {
  n: number
  resolve: (reqs: RecordedRequest[]) => void
}

export class FakeOpenAI {
  readonly baseURL: string
  readonly requests: RecordedRequest[] = []
  private queue: Scripted[] = []
  private fallbackReply: Scripted | undefined
  private guards: Guard[] = []
  private waiters: Waiter[] = []
  private sockets = new Set<Socket>()
  private toolCallCounter = 0
  private completionCounter = 0
  private closed = false

  private constructor(private server: Server, port: number) {
    this.baseURL = `http://127.0.0.1:${port}/v1`
    server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
  }

  static start(): Promise<FakeOpenAI> {
    return new Promise((resolve, reject) => {
      let fake: FakeOpenAI
      const server = createServer((req, res) => {
        fake.handle(req, res).catch((e) => {
          // never let a bug here leave the client hanging
          if (!res.headersSent) sendError(res, 500, `fake-openai: internal error: ${e?.message ?? e}`)
          else res.destroy()
        })
      })
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo
        fake = new FakeOpenAI(server, port)
        resolve(fake)
      })
    })
  }

  script(...replies: Scripted[]): this {
    this.queue.push(...replies)
    return this
  }

  /** Adds a rule the server enforces on every request (e.g. DeepSeek's reasoning pass-back). */
  guard(rule: Guard): this {
    this.guards.push(rule)
    return this
  }

  fallback(reply: Scripted | undefined): this {
    this.fallbackReply = reply
    return this
  }

  pending(): number {
    return this.queue.length
  }

  waitForRequests(n: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    if (this.requests.length >= n) return Promise.resolve(this.requests.slice())
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        n,
        resolve: (reqs) => {
          realClearTimeout(timer)
          resolve(reqs)
        },
      }
      const timer = realSetTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(new Error(`fake-openai: timed out after ${timeoutMs}ms waiting for ${n} request(s), got ${this.requests.length}`))
      }, timeoutMs)
      this.waiters.push(waiter)
    })
  }

  reset(): void {
    this.queue = []
    this.requests.length = 0
    this.fallbackReply = undefined
    this.guards = []
    this.toolCallCounter = 0
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      // hanging requests keep their sockets open forever; server.close() alone would wait on them
      for (const socket of this.sockets) socket.destroy()
      this.server.closeAllConnections?.()
    })
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0]
    const raw = await text(req)

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-openai' }],
      })
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(res, 404, `fake-openai: unknown route ${req.method} ${path}`, 'not_found')
    }

    let body: any
    try {
      body = raw ? JSON.parse(raw) : {}
    } catch (e) {
      return sendError(res, 400, `fake-openai: request body is not JSON: ${(e as Error).message}`)
    }

    // record first, so waitForRequests sees it even if the scripted reply hangs
    const recorded: RecordedRequest = {
      index: this.requests.length,
      path,
      headers: cleanHeaders(req.headers),
      body,
    }
    this.requests.push(recorded)
    this.notifyWaiters()

    for (const rule of this.guards) {
      const refused = rule(recorded)
      if (refused) return sendError(res, refused.status ?? 400, refused.error ?? 'refused by a server rule', 'invalid_request_error', refused.headers)
    }
    const scripted = this.queue.length ? this.queue.shift() : this.fallbackReply
    if (scripted === undefined) {
      // 400 rather than 5xx: the SDK does not retry it, so the test fails fast and clearly
      return sendError(res, 400, `fake-openai: no scripted reply for request #${recorded.index}`)
    }

    let reply: FakeReply
    try {
      reply = typeof scripted === 'function' ? await scripted(recorded) : scripted
    } catch (e) {
      return sendError(res, 400, `fake-openai: scripted reply for request #${recorded.index} threw: ${(e as Error)?.message ?? e}`)
    }
    reply ??= {}

    if (reply.hang) return // the socket is destroyed by close() or by the client aborting
    if (reply.delayMs) await new Promise((r) => realSetTimeout(r, reply.delayMs))
    if (res.destroyed || this.closed) return

    if (reply.body !== undefined) return sendJson(res, reply.status ?? 200, reply.body, reply)
    if (reply.status && reply.status >= 400) {
      return sendError(res, reply.status, reply.error ?? `fake-openai: scripted status ${reply.status}`, undefined, reply.headers)
    }

    const toolCalls = (reply.toolCalls ?? []).map((tc) => ({
      id: tc.id ?? `call_${++this.toolCallCounter}`,
      name: tc.name,
      arguments: typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments ?? {}),
    }))
    const id = `chatcmpl-fake-${++this.completionCounter}`
    const model = typeof body.model === 'string' ? body.model : 'fake-model'
    const created = Math.floor(Date.now() / 1000)
    const finishReason = toolCalls.length ? 'tool_calls' : 'stop'
    const usage = makeUsage(body, reply, toolCalls)

    if (body.stream === true) {
      return streamReply(res, { id, model, created, reply, toolCalls, finishReason, usage, includeUsage: !!body.stream_options?.include_usage })
    }

    const message: any = { role: 'assistant', content: reply.content ?? (toolCalls.length ? null : '') }
    if (reply.reasoning) message.reasoning_content = reply.reasoning
    if (toolCalls.length) {
      message.tool_calls = toolCalls.map((tc) => ({
        id: tc.id,
        type: 'function',
        function: { name: tc.name, arguments: tc.arguments },
      }))
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage,
    }, reply)
  }

  private notifyWaiters() {
    const ready = this.waiters.filter((w) => this.requests.length >= w.n)
    if (!ready.length) return
    this.waiters = this.waiters.filter((w) => !ready.includes(w))
    for (const w of ready) w.resolve(this.requests.slice())
  }
}

interface StreamArgs {
  id: string
  model: string
  created: number
  reply: FakeReply
  toolCalls: { id: string; name: string; arguments: string }[]
  finishReason: string
  usage: ReturnType<typeof makeUsage>
  includeUsage: boolean
}

function streamReply(res: ServerResponse, a: StreamArgs) {
  const chunk = (delta: any, finish: string | null = null) => ({
    id: a.id,
    object: 'chat.completion.chunk',
    created: a.created,
    model: a.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  const events: string[] = []
  const send = (data: unknown) => events.push(`data: ${JSON.stringify(data)}\n\n`)

  send(chunk({ role: 'assistant', content: '' }))
  // split text in two so tests exercise delta accumulation like a real server
  for (const piece of halves(a.reply.reasoning)) send(chunk({ reasoning_content: piece }))
  for (const piece of halves(a.reply.content)) send(chunk({ content: piece }))
  a.toolCalls.forEach((tc, index) => {
    // real servers send id + name first, then the arguments in fragments
    send(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' } }] }))
    for (const piece of halves(tc.arguments)) send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
  })
  send(chunk({}, a.finishReason))
  if (a.includeUsage && a.usage) {
    send({ id: a.id, object: 'chat.completion.chunk', created: a.created, model: a.model, choices: [], usage: a.usage })
  }
  events.push('data: [DONE]\n\n')

  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...a.reply.headers,
  })
  if (!isPartial(a.reply)) {
    for (const e of events.slice(0, -1)) res.write(e)
    res.end(events.at(-1))
    return
  }
  // an unfinished stream: events up to the byte budget, then an end (or a cut connection)
  const whole = Buffer.byteLength(events.join(''))
  let budget = partialLength(a.reply, whole)
  for (const e of events) {
    const bytes = Buffer.from(e)
    if (budget <= 0) break
    res.write(bytes.subarray(0, budget))
    budget -= bytes.length
  }
  finishPartial(res, a.reply)
}

function isPartial(r: FakeReply | undefined): boolean {
  return !!r && (r.cut === true || r.truncateAt !== undefined)
}

function partialLength(r: FakeReply, whole: number): number {
  return Math.max(0, Math.min(whole, r.truncateAt ?? Math.floor(whole / 2)))
}

/** Ends a partial body: a cut destroys the socket once the bytes are flushed; otherwise a clean end. */
function finishPartial(res: ServerResponse, r: FakeReply) {
  if (r.cut) res.write('', () => res.destroy())
  else res.end()
}

function halves(text: string | undefined): string[] {
  if (!text) return []
  if (text.length < 2) return [text]
  const mid = Math.ceil(text.length / 2)
  return [text.slice(0, mid), text.slice(mid)]
}

// rough but deterministic token counts; tests only need them present and stable
function makeUsage(body: any, reply: FakeReply, toolCalls: { arguments: string }[]): any {
  if (reply.usage === false) return undefined
  const o = reply.usage ?? {}
  const prompt_tokens = o.prompt_tokens ?? Math.ceil(JSON.stringify(body.messages ?? []).length / 4)
  const out = (reply.content ?? '') + (reply.reasoning ?? '') + toolCalls.map((t) => t.arguments).join('')
  const completion_tokens = o.completion_tokens ?? Math.ceil(out.length / 4)
  const usage: any = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens }
  if (o.cached_tokens !== undefined) usage.prompt_tokens_details = { cached_tokens: o.cached_tokens }
  // DeepSeek's own fields (their API reference, "usage")
  if (o.prompt_cache_hit_tokens !== undefined) Object.assign(usage, { prompt_cache_hit_tokens: o.prompt_cache_hit_tokens, prompt_cache_miss_tokens: prompt_tokens - o.prompt_cache_hit_tokens })
  if (o.reasoning_tokens !== undefined) usage.completion_tokens_details = { reasoning_tokens: o.reasoning_tokens }
  return usage
}


function cleanHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = v
  return out
}

function sendJson(res: ServerResponse, status: number, data: unknown, reply?: Pick<FakeReply, 'headers' | 'cut' | 'truncateAt'>) {
  const bytes = Buffer.from(JSON.stringify(data))
  const headers = { 'content-type': 'application/json', ...reply?.headers }
  if (!isPartial(reply)) {
    res.writeHead(status, { ...headers, 'content-length': bytes.length })
    res.end(bytes)
    return
  }
  const at = partialLength(reply, bytes.length)
  // a cut promises the whole body; a clean truncation announces only what it sends
  res.writeHead(status, { ...headers, 'content-length': reply.cut ? bytes.length : at })
  res.write(bytes.subarray(0, at))
  finishPartial(res, reply)
}

// OpenAI's error envelope; the provider surfaces error.message in APICallError
function sendError(res: ServerResponse, status: number, message: string, type = 'invalid_request_error', headers?: Record<string, string>) {
  sendJson(res, status, { error: { message, type, param: null, code: null } }, { headers })
}

// ---- helpers for assertions on request bodies ----

export function messagesOf(req: RecordedRequest): any[] {
  return req.body?.messages ?? []
}

export function toolNamesOf(req: RecordedRequest): string[] {
  return (req.body?.tools ?? []).map((t: any) => t?.function?.name ?? t?.name)
}

export function lastUserText(req: RecordedRequest): string {
  const users = messagesOf(req).filter((m) => m.role === 'user')
  const last = users[users.length - 1]
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  if (!Array.isArray(last.content)) return ''
  return last.content.filter((p: any) => p?.type === 'text').map((p: any) => p.text).join('')
}

export function imagePartsOf(req: RecordedRequest): string[] {
  const urls: string[] = []
  for (const m of messagesOf(req)) {
    if (!Array.isArray(m.content)) continue
    for (const p of m.content) {
      if (p?.type === 'image_url') urls.push(typeof p.image_url === 'string' ? p.image_url : p.image_url?.url)
    }
  }
  return urls
}

export function toolResultsOf(req: RecordedRequest): { tool_call_id: string; content: string }[] {
  return messagesOf(req)
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      tool_call_id: m.tool_call_id,
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    }))
}
