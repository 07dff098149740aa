// Helpers for the fault specs (tests/<part>/*-faults.spec.ts): the plugin's history files, and stopping or
// reloading the plugin while observing when its service has really stopped.
import { execFileSync } from 'node:child_process'
import { mkdtemp, open, readFile, rm, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as kotodama from '../../src'
import { runtimeHome } from '../../src/runtime/runtime'
import { safeName } from '../../src/util/safe-name'
import type { Harness } from './harness'
import type { RecordedRequest } from './fake-openai'

const realSetTimeout = globalThis.setTimeout

/** The runtime home of the harness's default profile and bot. */
export function homeOf(h: Harness, profile = 'neko', bot = 'mock:514'): string {
  return runtimeHome(h.dataDir, profile, bot)
}

/** The JSONL history file of a conversation, by channel key (`group:room1`, `private:bob`). */
export function historyFile(h: Harness, channel: string): string {
  return join(homeOf(h), 'conversations', `${safeName(channel)}.jsonl`)
}

export interface HistoryRead {
  /** every non-empty line as written */
  lines: string[]
  /** lines that parse as JSON objects */
  entries: any[]
  /** lines that do not parse (their 1-based line numbers) */
  broken: number[]
}

/** Reads a history file as a user with a text editor would: every line, parsed where it parses. */
export async function readHistory(h: Harness, channel: string): Promise<HistoryRead> {
  let text = ''
  try {
    text = await readFile(historyFile(h, channel), 'utf8')
  } catch (e: any) {
    if (e?.code !== 'ENOENT') throw e
  }
  const out: HistoryRead = { lines: [], entries: [], broken: [] }
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return
    out.lines.push(line)
    try {
      const v = JSON.parse(line)
      if (v && typeof v === 'object') out.entries.push(v)
      else out.broken.push(i + 1)
    } catch {
      out.broken.push(i + 1)
    }
  })
  return out
}

/**
 * Reads a history until `ready` holds for it, or `timeoutMs` has passed: appends are written
 * asynchronously, so a turn can end before its entries reach the disk. Returns the last read
 * either way; the caller's assertions then say what is missing.
 */
export async function readHistoryWhen(h: Harness, channel: string, ready: (r: HistoryRead) => boolean, timeoutMs = 3000): Promise<HistoryRead> {
  const started = Date.now()
  for (;;) {
    const r = await readHistory(h, channel)
    if (ready(r) || Date.now() - started > timeoutMs) return r
    await new Promise(resolve => realSetTimeout(resolve, 20))
  }
}

/** Every text appears in the facts, in this order. */
export function hasFactsInOrder(r: HistoryRead, texts: string[]): boolean {
  const facts = factTexts(r)
  let from = 0
  for (const t of texts) {
    const i = facts.findIndex((f, k) => k >= from && f.includes(t))
    if (i < 0) return false
    from = i + 1
  }
  return true
}

/** The text contents of the facts stored in a history, in file order. */
export function factTexts(r: HistoryRead): string[] {
  return r.entries.filter(e => e.type === 'fact').map(e => String(e.fact?.content ?? ''))
}

/** Tool calls in step entries that have no tool result in the same step (a half-done step). */
export function unansweredCalls(r: HistoryRead): string[] {
  const out: string[] = []
  for (const e of r.entries) {
    if (e.type !== 'step' || !Array.isArray(e.messages)) continue
    const results = new Set<string>()
    for (const m of e.messages) {
      if (m.role === 'tool' && Array.isArray(m.content)) for (const p of m.content) if (p?.toolCallId) results.add(p.toolCallId)
    }
    for (const m of e.messages) {
      if (m.role !== 'assistant' || !Array.isArray(m.content)) continue
      for (const p of m.content) if (p?.type === 'tool-call' && !results.has(p.toolCallId)) out.push(`${p.toolName}#${p.toolCallId}`)
    }
  }
  return out
}

/** Tool calls of a request body without a tool message answering them. */
export function requestUnansweredCalls(req: RecordedRequest): string[] {
  const msgs: any[] = req.body?.messages ?? []
  const answered = new Set(msgs.filter(m => m.role === 'tool').map(m => m.tool_call_id))
  return msgs.flatMap(m => (m.role === 'assistant' && m.tool_calls ? m.tool_calls : []))
    .filter((c: any) => !answered.has(c.id)).map((c: any) => `${c.function?.name}#${c.id}`)
}

/** All text of a request's messages, for "does the model see X" checks. */
export function requestText(req: RecordedRequest): string {
  return JSON.stringify(req.body?.messages ?? [])
}

/**
 * Disposes the plugin (Koishi does not wait for a service to stop) and resolves when the
 * kotodama service's stop() has finished, or rejects after `timeoutMs`.
 */
export async function disposeAndWait(h: Harness, timeoutMs = 5000): Promise<number> {
  const service = h.app.kotodama as any
  const started = Date.now()
  const stopped = new Promise<void>((resolve, reject) => {
    const original = service.stop
    service.stop = async function (this: unknown, ...args: unknown[]) {
      try {
        await original.apply(this, args)
        resolve()
      } catch (e) {
        reject(e)
      }
    }
  })
  h.fork.dispose()
  let timer: ReturnType<typeof setTimeout>
  const timeout = new Promise<never>((_, reject) => { timer = realSetTimeout(() => reject(new Error(`the plugin did not stop within ${timeoutMs} ms`)), timeoutMs) })
  try {
    await Promise.race([stopped, timeout])
  } finally {
    clearTimeout(timer)
  }
  return Date.now() - started
}

/** Plugs the plugin again (after a dispose) with the harness's config. */
export async function plugAgain(h: Harness): Promise<void> {
  h.fork = h.app.plugin(kotodama, h.config)
  await h.idle()
}

/** Disposes and plugs the plugin again `gapMs` later, without waiting for the old one to stop. */
export async function reloadNow(h: Harness, gapMs = 0): Promise<void> {
  h.fork.dispose()
  if (gapMs) await h.idle(gapMs)
  await plugAgain(h)
}

/**
 * Changes the first model entry (the harness makes it after its fake server is up) and restarts
 * the plugin with it. Call before the first message.
 */
export async function reconfigureModel(h: Harness, overrides: Record<string, unknown>): Promise<void> {
  Object.assign(h.config.models[0], overrides)
  await disposeAndWait(h)
  await plugAgain(h)
}

/** A real tmpfs of `size` at a new folder (mounting needs root: the test is skipped otherwise). */
export async function mountTmpfs(ctx: Mocha.Context, size = '256k'): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    await rm(dir, { recursive: true, force: true })
    ctx.skip()   // mounting a tmpfs needs root (CI runs as root)
  }
}

export async function unmount(dir: string | undefined) {
  if (!dir) return
  try { execFileSync('umount', ['-l', dir], { stdio: 'ignore' }) } catch {}
  await rm(dir, { recursive: true, force: true })
}

/**
 * Fills the file system until about `leave` bytes are free. Background writes of the plugin (its
 * search index) may take space meanwhile: the filler then takes what is left, in smaller pieces.
 */
export async function fill(dir: string, leave: number): Promise<string> {
  const s = await statfs(dir)
  const path = join(dir, 'filler')
  const fh = await open(path, 'w')
  try {
    let want = Math.max(0, s.bavail * s.bsize - leave)
    for (let chunk = 64 * 1024; want > 0 && chunk >= 1;) {
      try {
        await fh.write(Buffer.alloc(Math.min(chunk, want)))
        want -= Math.min(chunk, want)
      } catch (e: any) {
        if (e?.code !== 'ENOSPC') throw e
        chunk = Math.floor(chunk / 2)
      }
    }
  } finally {
    await fh.close()
  }
  return path
}
