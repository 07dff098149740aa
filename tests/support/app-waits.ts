// What every Koishi test harness shares (plugin-mock's, OneBot's, QQ's): the log captured, waits on
// real time (tests install fake timers, so the real clock is captured at load), turns settled.
import type { App } from 'koishi'
import { Logger } from 'koishi'
import * as kotodama from '../../src'

const realSetTimeout = globalThis.setTimeout
const realNow = Date.now.bind(Date)

export interface LogLine {
  level: string
  text: string
}

/** Collects Koishi's log lines into `logs`; returns the undo. */
export function captureLogs(logs: LogLine[]): () => void {
  const target: Logger.Target = { colors: 0, record: (record: Logger.Record) => { logs.push({ level: record.type, text: record.content }) } }
  Logger.targets.push(target)
  return () => { const i = Logger.targets.indexOf(target); if (i >= 0) Logger.targets.splice(i, 1) }
}

export const warningsOf = (logs: LogLine[]): string[] => logs.filter(l => l.level === 'warn' || l.level === 'error').map(l => l.text)

/** Lets pending async work run (real time). */
export function idle(ms = 20): Promise<void> {
  return new Promise(r => realSetTimeout(r, ms))
}

/** Resolves when `cond` holds (a promise is awaited), polling on real time. */
export async function until(cond: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 8000): Promise<void> {
  const start = realNow()
  while (!(await cond())) {
    if (realNow() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await idle(5)
  }
}

/**
 * Waits until the messages kotodama received are stored, no conversation runs a turn, and what they
 * appended is written. (A message still in Koishi's middleware is not received yet: wait for it first.)
 */
export async function settled(app: App, timeoutMs = 8000): Promise<void> {
  const start = realNow()
  for (;;) {
    await app.kotodama?.received()
    const runtimes = await app.kotodama?.list() ?? []
    const statuses = await Promise.all(runtimes.map(r => r.status()))
    if (statuses.flat().every(c => !c.busy)) {
      await Promise.all(runtimes.map(r => r.written()))
      return
    }
    if (realNow() - start > timeoutMs) throw new Error('timed out waiting for turns to end')
    await idle(5)
  }
}

/** What every harness offers over its app: its log, real-time waits, settled turns. */
export abstract class AppHarness {
  abstract readonly app: App
  /** the plugin's config, as the harness started it */
  abstract readonly config: any
  /** the plugin's fork in the app */
  abstract fork: ReturnType<App['plugin']> | undefined
  readonly logs: LogLine[] = []
  protected untarget = () => {}

  /** Starts collecting Koishi's log lines (undone by `untarget`). */
  protected captureLogs(): void {
    this.untarget = captureLogs(this.logs)
  }

  /** Resolves when `cond` holds, polling on real time. */
  until(cond: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 8000): Promise<void> {
    return until(cond, what, timeoutMs)
  }

  /** Lets pending async work run (real time). */
  idle(ms = 20): Promise<void> {
    return idle(ms)
  }

  /** Waits until no conversation runs a turn. */
  settled(timeoutMs = 8000): Promise<void> {
    return settled(this.app, timeoutMs)
  }

  /** Disposes the plugin and starts it again (a restart of kotodama; its homes and histories stay). */
  async reload(config = this.config): Promise<void> {
    this.fork?.dispose()
    await this.idle(50)
    this.fork = this.app.plugin(kotodama, config)
    await this.idle()
  }

  warnings(): string[] {
    return warningsOf(this.logs)
  }
}
