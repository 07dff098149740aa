// A scripted stand-in for an LLM: a tiny OpenAI-compatible chat-completions server on 127.0.0.1.
// It lets `npm start -- --offline` show the whole pipeline (wake → HTTP model request →
// send_message with typing pauses → reply in the sandbox) without any model server.
import { text } from 'node:stream/consumers'
import { createServer, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export const OFFLINE_MODEL = 'kotodama-offline'

export interface OfflineModel {
  baseURL: string
  model: string
  /** number of chat-completions requests answered so far */
  readonly requests: number
  close(): Promise<void>
}

// `[2026-11-29 18:30] Alice (u123) #m456: content` (src/runtime/render-facts.ts)
const FACT_LINE = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] .*? \([^)]*\) #\S*: (?:\(reply to #\S*\) )?/

export function startOfflineModel(host = '127.0.0.1'): Promise<OfflineModel> {
  return new Promise((resolve, reject) => {
    const sockets = new Set<Socket>()
    let requests = 0
    let calls = 0
    /** recent request bodies: a prefix seen before is "cached", as a server's prompt cache counts it (SPEC §16) */
    const seen: string[] = []
    const server = createServer((req, res) => {
      handle(req, res).catch((e) => {
        // never leave the plugin waiting on a broken reply
        if (!res.headersSent) sendJson(res, 500, { error: { message: `offline model: ${e?.message ?? e}`, type: 'server_error' } })
        else res.destroy()
      })
    })

    async function handle(req: IncomingMessage, res: ServerResponse) {
      const path = (req.url ?? '/').split('?')[0]
      const raw = await text(req)
      if (req.method === 'GET' && path === '/v1/models') {
        return sendJson(res, 200, { object: 'list', data: [{ id: OFFLINE_MODEL, object: 'model', created: 0, owned_by: 'kotodama' }] })
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return sendJson(res, 404, { error: { message: `offline model: no route ${req.method} ${path}`, type: 'not_found' } })
      }
      let body: any
      try {
        body = JSON.parse(raw || '{}')
      } catch {
        return sendJson(res, 400, { error: { message: 'offline model: the body is not JSON', type: 'invalid_request_error' } })
      }
      if (body.stream === true) {
        // the plugin calls generateText (non-streaming); keep this server minimal
        return sendJson(res, 400, { error: { message: 'offline model: streaming is not supported', type: 'invalid_request_error' } })
      }
      requests++
      const answer = upkeepReply(body) ?? reply(body)
      const list = 'text' in answer ? [] : 'calls' in answer ? answer.calls : [answer]
      // a rough count (4 characters a token), so the console's token figures show something real
      const promptTokens = Math.ceil(raw.length / 4)
      const cachedTokens = cachedPrefixTokens(seen, raw)
      seen.push(raw)
      if (seen.length > 32) seen.shift()
      const completionTokens = Math.ceil(JSON.stringify(answer).length / 4) + 5
      const toolCalls = list.map(c => ({ id: `call_offline_${++calls}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }))
      sendJson(res, 200, {
        id: `chatcmpl-offline-${requests}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: typeof body.model === 'string' ? body.model : OFFLINE_MODEL,
        choices: [{
          index: 0,
          message: toolCalls.length
            ? { role: 'assistant', content: null, tool_calls: toolCalls }
            : { role: 'assistant', content: (answer as { text: string }).text },
          finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens, prompt_tokens_details: { cached_tokens: cachedTokens } },
      })
    }

    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo
      resolve({
        baseURL: `http://${host}:${port}/v1`,
        model: OFFLINE_MODEL,
        get requests() { return requests },
        close: () => new Promise<void>((done) => {
          server.close(() => done())
          // keep-alive sockets from the SDK's fetch would otherwise hold close() open
          for (const socket of sockets) socket.destroy()
        }),
      })
    })
  })
}

/** "remind me in 2 minutes: stretch" / "2分钟后提醒我：喝水": the schedule tool's demo (SPEC §25) */
const REMIND = /remind me in (\d{1,4}) ?(s|sec|seconds?|m|min|minutes?)\b[:,]?\s*(.*)/i
const REMIND_ZH = /(\d{1,4}) ?(秒|分钟)后提醒我[:：，,]?\s*(.*)/
/** the opening note of a task's turn */
const FIRED = /\[schedule #\w+, asked by .*? on \d{4}-\d\d-\d\d \d\d:\d\d: (.*?)(?:; [^;\]]* late)?\]$/m

/** an upkeep chunk's line (src/upkeep/page.ts): `#id name: text` */
const UPKEEP_LINE = /^#(\S+) (.+?): (.*)$/
/** what a person says of themselves: "I …", "I'm …", "my …", "我…" */
const SELF = /^(i|i'm|i am|my)\b|^我/i

/**
 * Upkeep's demo (SPEC §26): in a chunk's first step, propose each thing a person said of themselves
 * as an addition to their note, with its message as the source (all in one step, which ends the
 * run when they succeed); after a refusal, or with nothing to keep, end with a word.
 */
function upkeepReply(body: any): { text: string } | { calls: { name: string; args: unknown }[] } | undefined {
  const messages: any[] = Array.isArray(body.messages) ? body.messages : []
  const first = textOf(messages.find(m => m.role === 'user')?.content)
  if (!first.startsWith('[upkeep of ')) return undefined
  if (messages.some(m => m.role === 'tool')) return { text: 'Done: nothing more to keep.' }
  const own = /Message #id is (\S+)\/id\]/.exec(first)?.[1]
  const notes = new Map<string, string>()
  for (const m of first.matchAll(/^- (.+?) \(id [^)]*\): (local:\/\/\S+)/gm)) notes.set(m[1], m[2])
  const calls: { name: string; args: unknown }[] = []
  for (const line of first.split('\n')) {
    const m = UPKEEP_LINE.exec(line)
    const url = m && notes.get(m[2])
    if (!m || !url || !own || !SELF.test(m[3])) continue
    calls.push({ name: 'propose', args: { url, append: `- said: ${m[3]}\n`, reason: `${m[2]} said this of themselves`, sources: [`${own}/${m[1]}`] } })
  }
  return calls.length ? { calls } : { text: 'Nothing worth keeping in these messages.' }
}

const say = (...messages: string[]) => ({ name: 'send_message', args: { mode: 'text', messages } })

/** The minimal mind: answer chat facts with two short messages, keep a reminder, and end the turn after a tool result. */
function reply(body: any): { name: string; args: unknown } {
  const messages: any[] = Array.isArray(body.messages) ? body.messages : []
  const last = messages[messages.length - 1]
  if (last?.role === 'tool') {
    const added = parsed(textOf(last.content))
    if (added?.ok && added.id && added.next) return say(`Okay, task #${added.id}: I will remind you at ${added.next}.`)
    if (added?.ok === false && added.error?.message) return say(`I could not keep that: ${added.error.message}`)
  }
  if (last?.role !== 'user') return { name: 'finish', args: { reason: 'offline demo: nothing more to say' } }
  const fired = FIRED.exec(textOf(last.content))
  if (fired) return say(`⏰ ${fired[1]}`)
  const heard = lastFact(textOf(last.content))
  const asked = REMIND.exec(heard) ?? REMIND_ZH.exec(heard)
  if (asked) {
    const seconds = /^(s|sec|秒)/i.test(asked[2]) ? Number(asked[1]) : Number(asked[1]) * 60
    // an ISO time with its offset: the offline model knows no time zone
    return { name: 'schedule', args: { at: new Date(Date.now() + seconds * 1000).toISOString(), note: asked[3] || 'your reminder' } }
  }
  return {
    name: 'send_message',
    args: {
      // text mode: what people typed is echoed literally, never parsed as markup
      mode: 'text',
      messages: [
        heard ? `I heard: ${heard}` : 'I heard you, but there was no text to echo.',
        '(This is the offline demo: a scripted model, not an LLM.)',
      ],
    },
  }
}

/** The longest prefix `raw` shares with a request seen before, in whole blocks of 64 tokens (4 characters a token), as DeepSeek counts its cache. */
function cachedPrefixTokens(seen: string[], raw: string): number {
  let best = 0
  for (const s of seen) {
    const n = Math.min(s.length, raw.length)
    let i = 0
    while (i < n && s.charCodeAt(i) === raw.charCodeAt(i)) i++
    best = Math.max(best, i)
  }
  return Math.floor(best / 4 / 64) * 64
}

function parsed(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.filter((p: any) => p?.type === 'text').map((p: any) => p.text).join('\n')
}

/** The content of the newest fact line, as plain text (a fact may span several lines). */
function lastFact(text: string): string {
  const lines = text.split('\n')
  let start = -1
  for (let i = lines.length - 1; i >= 0; i--) {
    if (FACT_LINE.test(lines[i])) { start = i; break }
  }
  if (start < 0) return ''
  // a fact's later lines are indented; what follows them (the turn's `[now: …]`, people lines) is the runtime's
  let end = start + 1
  while (end < lines.length && lines[end].startsWith('  ')) end++
  const content = [lines[start].replace(FACT_LINE, ''), ...lines.slice(start + 1, end)].join('\n')
  const plain = unescape(content.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim()
  return plain.length > 200 ? plain.slice(0, 199) + '…' : plain
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&amp;/g, '&')
}


function sendJson(res: ServerResponse, status: number, data: unknown) {
  const text = JSON.stringify(data)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}
