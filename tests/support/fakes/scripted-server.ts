// The core of every imitated API server in the tests: an HTTP server on 127.0.0.1 (a free port)
// that records each request and answers it from a script. It knows no API: a wire module (see
// wire/) turns a scripted reply into one API's bytes, and endpoints route by method and path, so
// one server can serve several APIs at once. It follows only HTTP/1.1 (RFC 9112) and, for event
// streams, the HTML living standard's "Server-sent events" framing.
import { buffer } from 'node:stream/consumers'
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http'
import { AddressInfo, Socket } from 'node:net'

// Captured at module load: tests install @sinonjs/fake-timers, and the server's
// own waiting (delayMs, waitForRequests timeouts) must keep using real time.
const realSetTimeout = globalThis.setTimeout
const realClearTimeout = globalThis.clearTimeout

export interface RecordedRequest {
  /** its position among its endpoint's requests */
  index: number
  method: string
  path: string
  /** the query string without `?` ('' when none) */
  query: string
  headers: Record<string, string | string[]>
  /** as the endpoint's wire parsed it (JSON by default) */
  body: any
  raw: Buffer
  /** the endpoint's name, e.g. 'chat' */
  endpoint: string
}

/** How a reply is delivered, whatever the API: every wire's reply type extends this. */
export interface Delivery {
  /** an error status: the wire renders its API's error shape (a success status is the wire's choice) */
  status?: number
  /** extra response headers (e.g. `retry-after-ms` on a 429), on errors and successes alike */
  headers?: Record<string, string>
  /** real milliseconds to wait before answering */
  delayMs?: number
  /** never answer: the socket stays open until the client aborts or the server closes */
  hang?: boolean
  /**
   * The connection is closed mid-body: the headers promise the whole body (content-length, or a
   * chunked stream), then only `truncateAt` bytes (default: half) arrive before the socket is destroyed.
   */
  cut?: boolean
  /**
   * Only the first `truncateAt` bytes of the body are sent. Without `cut` the response ends
   * cleanly (well-formed HTTP whose content is broken, or a stream that stops early); with `cut`
   * the connection is destroyed instead.
   */
  truncateAt?: number
  /** sent as the whole JSON body with `status` (default 200), bypassing the wire */
  body?: unknown
}

/** What a wire hands the core: one JSON value, a stream of chunks, or bytes. */
export type Payload = { status: number; headers?: Record<string, string> } & (
  | { json: unknown }
  | { chunks: string[]; contentType?: string }
  | { bytes: Buffer; contentType: string }
)

/** One API's wire format: how a scripted reply (and an error) becomes a response. */
export interface Wire<R extends Delivery> {
  /** the request body as the API sends it; default JSON (a parse error is answered 400) */
  parse?(raw: Buffer, headers: IncomingMessage['headers']): unknown
  /**
   * What the real server refuses before anything else (a missing field): the message is answered
   * 400 (or the given status) in the wire's error shape, ahead of guards and script; the request is still recorded.
   */
  check?(req: RecordedRequest): string | { status: number; message: string } | undefined
  render(reply: R, req: RecordedRequest): Payload | Promise<Payload>
  /** an error in the API's own shape (no scripted reply, a throwing script, unparsable body) */
  error(status: number, message: string, reply?: R): Payload
  /** forget per-run state (e.g. id counters) */
  reset?(): void
}

export type Scripted<R> = R | ((req: RecordedRequest) => R | Promise<R>)
/** A rule checked before the script: a reply it returns is sent instead (default status 400), and the script is not consumed. */
export type Guard<R> = (req: RecordedRequest) => R | undefined

interface Waiter {
  n: number
  resolve: (reqs: RecordedRequest[]) => void
}

/** A list of requests that can be waited on, in real time. */
class Recorder {
  readonly requests: RecordedRequest[] = []
  private waiters: Waiter[] = []

  constructor(protected label: string) {}

  record(req: RecordedRequest) {
    this.requests.push(req)
    const ready = this.waiters.filter((w) => this.requests.length >= w.n)
    this.waiters = this.waiters.filter((w) => !ready.includes(w))
    for (const w of ready) w.resolve(this.requests.slice())
  }

  waitForRequests(n: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    if (this.requests.length >= n) return Promise.resolve(this.requests.slice())
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { n, resolve: (reqs) => { realClearTimeout(timer); resolve(reqs) } }
      const timer = realSetTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(new Error(`${this.label}: timed out after ${timeoutMs}ms waiting for ${n} request(s), got ${this.requests.length}`))
      }, timeoutMs)
      this.waiters.push(waiter)
    })
  }
}

/** One route of the server with its own script, guards, fallback and recorded requests. */
export class Endpoint<R extends Delivery> extends Recorder {
  private queue: Scripted<R>[] = []
  private fallbackReply: Scripted<R> | undefined
  private guards: Guard<R>[] = []

  constructor(readonly name: string, readonly wire: Wire<R>, label: string) {
    super(label)
  }

  script(...replies: Scripted<R>[]): this {
    this.queue.push(...replies)
    return this
  }

  guard(rule: Guard<R>): this {
    this.guards.push(rule)
    return this
  }

  fallback(reply: Scripted<R> | undefined): this {
    this.fallbackReply = reply
    return this
  }

  pending(): number {
    return this.queue.length
  }

  reset(): void {
    this.queue = []
    this.requests.length = 0
    this.fallbackReply = undefined
    this.guards = []
    this.wire.reset?.()
  }

  /** The reply for a recorded request: a guard's, the script's, or an error payload. */
  async answer(req: RecordedRequest): Promise<{ reply?: R; payload?: Payload }> {
    const refused = this.wire.check?.(req)
    if (typeof refused === 'string') return { payload: this.wire.error(400, refused) }
    if (refused) return { payload: this.wire.error(refused.status, refused.message) }
    for (const rule of this.guards) {
      const refused = rule(req)
      if (refused) return { reply: { status: 400, ...refused } }
    }
    const scripted = this.queue.length ? this.queue.shift() : this.fallbackReply
    // 400 rather than 5xx: SDKs do not retry it, so the test fails fast and clearly
    if (scripted === undefined) return { payload: this.wire.error(400, `${this.label}: no scripted reply for request #${req.index}`) }
    try {
      const reply = typeof scripted === 'function' ? await (scripted as (r: RecordedRequest) => R | Promise<R>)(req) : scripted
      return { reply: reply ?? ({} as R) }
    } catch (e) {
      return { payload: this.wire.error(400, `${this.label}: scripted reply for request #${req.index} threw: ${(e as Error)?.message ?? e}`) }
    }
  }
}

interface Route {
  method: string
  path: string | RegExp
  endpoint?: Endpoint<any>
  /** an unrecorded, unscripted answer (e.g. a model list) */
  fixed?: (req: RecordedRequest) => Payload
}

export interface ServerOptions {
  /** names the server in its error messages, e.g. 'fake-openai' */
  name?: string
}

export class ScriptedServer extends Recorder {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  private routes: Route[] = []
  private sockets = new Set<Socket>()
  private closed = false

  private constructor(private server: Server, port: number, readonly name: string) {
    super(name)
    this.origin = `http://127.0.0.1:${port}`
    server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
  }

  static start(o: ServerOptions = {}): Promise<ScriptedServer> {
    return new Promise((resolve, reject) => {
      let fake: ScriptedServer
      const server = createServer((req, res) => {
        fake.handle(req, res).catch((e) => {
          // never let a bug here leave the client hanging
          if (!res.headersSent) write(res, errorPayload(500, `${fake.name}: internal error: ${e?.message ?? e}`, 'server_error'))
          else res.destroy()
        })
      })
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        fake = new ScriptedServer(server, (server.address() as AddressInfo).port, o.name ?? 'fake-server')
        resolve(fake)
      })
    })
  }

  /** Routes `method path` (a RegExp matches the whole path) to a new scripted endpoint speaking `wire`. */
  mount<R extends Delivery>(method: string, path: string | RegExp, wire: Wire<R>, name = String(path)): Endpoint<R> {
    const endpoint = new Endpoint(name, wire, this.name)
    this.routes.push({ method, path, endpoint })
    return endpoint
  }

  /** Answers `method path` the same way every time, without recording it. */
  serve(method: string, path: string | RegExp, answer: (req: RecordedRequest) => Payload): this {
    this.routes.push({ method, path, fixed: answer })
    return this
  }

  /** Resets every endpoint and forgets the server-wide request list. */
  reset(): void {
    for (const r of this.routes) r.endpoint?.reset()
    this.requests.length = 0
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
    const [path, query = ''] = (req.url ?? '/').split('?')
    const method = req.method ?? 'GET'
    const raw = await buffer(req)
    const route = this.routes.find((r) => r.method === method && (typeof r.path === 'string' ? r.path === path : matchesWhole(r.path, path)))
    if (!route) return write(res, errorPayload(404, `${this.name}: unknown route ${method} ${path}`, 'not_found'))
    const base = { method, path, query, headers: cleanHeaders(req.headers), raw }
    if (route.fixed) return write(res, route.fixed({ ...base, index: -1, body: undefined, endpoint: '' }))

    const endpoint = route.endpoint!
    let body: unknown
    try {
      body = endpoint.wire.parse ? endpoint.wire.parse(raw, req.headers) : raw.length ? JSON.parse(raw.toString('utf8')) : {}
    } catch (e) {
      return write(res, endpoint.wire.error(400, `${this.name}: request body is not ${endpoint.wire.parse ? 'readable' : 'JSON'}: ${(e as Error).message}`))
    }
    // record first, so waitForRequests sees it even if the scripted reply hangs
    const recorded: RecordedRequest = { ...base, index: endpoint.requests.length, body, endpoint: endpoint.name }
    endpoint.record(recorded)
    this.record(recorded)

    const { reply, payload } = await endpoint.answer(recorded)
    if (payload) return write(res, payload)
    const r = reply!
    if (r.hang) return // the socket is destroyed by close() or by the client aborting
    if (r.delayMs) await new Promise((done) => realSetTimeout(done, r.delayMs))
    if (res.destroyed || this.closed) return
    if (r.body !== undefined) return write(res, { status: r.status ?? 200, json: r.body }, r)
    write(res, await endpoint.wire.render(r, recorded), r)
  }
}

function matchesWhole(re: RegExp, path: string): boolean {
  const m = re.exec(path)
  return !!m && m.index === 0 && m[0].length === path.length
}

function cleanHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = v
  return out
}

/** The core's own errors (unknown route, its internal bugs); most APIs read `error.message`. */
export function errorPayload(status: number, message: string, type: string): Payload {
  return { status, json: { error: { message, type, code: status } } }
}

/** One server-sent event: `event:` only when named (OpenAI's chunks have none; Anthropic's do). */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
}

function isPartial(d: Delivery | undefined): d is Delivery {
  return !!d && (d.cut === true || d.truncateAt !== undefined)
}

function partialLength(d: Delivery, whole: number): number {
  return Math.max(0, Math.min(whole, d.truncateAt ?? Math.floor(whole / 2)))
}

/** Ends a partial body: a cut destroys the socket once the bytes are flushed; otherwise a clean end. */
function finishPartial(res: ServerResponse, d: Delivery) {
  if (d.cut) res.write('', () => res.destroy())
  else res.end()
}

/** Writes a payload, honouring the reply's extra headers and its truncation or cut. */
export function write(res: ServerResponse, p: Payload, d?: Delivery) {
  const headers = { ...p.headers, ...d?.headers }
  if ('chunks' in p) {
    res.writeHead(p.status, { 'content-type': p.contentType ?? 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers })
    if (!isPartial(d)) {
      for (const c of p.chunks.slice(0, -1)) res.write(c)
      res.end(p.chunks.at(-1))
      return
    }
    // an unfinished stream: chunks up to the byte budget, then an end (or a cut connection)
    let budget = partialLength(d, Buffer.byteLength(p.chunks.join('')))
    for (const c of p.chunks) {
      if (budget <= 0) break
      const bytes = Buffer.from(c)
      res.write(bytes.subarray(0, budget))
      budget -= bytes.length
    }
    return finishPartial(res, d)
  }
  const bytes = 'json' in p ? Buffer.from(JSON.stringify(p.json)) : p.bytes
  const all = { 'content-type': 'json' in p ? 'application/json' : p.contentType, ...headers }
  if (!isPartial(d)) {
    res.writeHead(p.status, { ...all, 'content-length': bytes.length })
    res.end(bytes)
    return
  }
  const at = partialLength(d, bytes.length)
  // a cut promises the whole body; a clean truncation announces only what it sends
  res.writeHead(p.status, { ...all, 'content-length': d.cut ? bytes.length : at })
  res.write(bytes.subarray(0, at))
  finishPartial(res, d)
}
