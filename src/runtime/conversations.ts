// A runtime's loaded conversations (SPEC §2): each loads once, counts against the plugin's budget
// of resident conversations (LoadedConversations, docs/scale.md), and is unloaded when idle and
// over it; an unloading one writes its last entries before the same key loads again.
import type { Logger } from '../util/logger'
import type { Conversation } from './conversation'
import type { LoadedConversations, Resident } from './loaded-conversations'

export interface ConversationStatus {
  key: string
  busy: boolean
  entries: number
  wait?: { seconds?: number; messages?: number; armedAt: number; factsSeen: number }
  /** the mind may not speak there until then (SPEC §19: a platform ban, the owner's pause) */
  muted?: { until: number; by: 'platform' | 'owner' }
  /** the next idle wake, or why there is none (SPEC §21); absent: initiative is off */
  idle?: { at: number } | { none: string }
}

export class Conversations {
  private loading = new Map<string, Promise<Conversation>>()
  private residents = new Map<string, Resident>()
  /** unloaded conversations still writing their history, by key */
  private unloading = new Map<string, Promise<unknown>>()
  /** messages and wake-ups on their way into a conversation (it must not be unloaded under them) */
  private arriving = new Map<string, number>()

  constructor(private o: {
    make(key: string): Conversation
    logger: Logger
    loaded?: LoadedConversations
    /** a conversation left memory under the loaded budget: what is kept for it elsewhere goes too */
    unloaded?(key: string): void
  }) {}

  get(key: string): Promise<Conversation> {
    let p = this.loading.get(key)
    if (!p) p = this.load(key)
    const resident = this.residents.get(key)
    if (resident) this.o.loaded?.touch(resident)
    return p
  }

  private load(key: string): Promise<Conversation> {
    const conv = this.o.make(key)
    const previous = this.unloading.get(key) ?? Promise.resolve()
    const p = previous.then(() => conv.load()).then(() => conv)
    p.catch(() => this.loading.delete(key))
    this.loading.set(key, p)
    this.residents.set(key, {
      idle: () => !this.arriving.get(key) && conv.idle,
      unload: () => {
        if (this.loading.get(key) !== p) return
        this.loading.delete(key)
        this.residents.delete(key)
        this.o.unloaded?.(key)
        const done = conv.stop().catch(e => this.o.logger.warn('conversation %s could not be unloaded cleanly: %s', key, e?.message ?? e))
        this.unloading.set(key, done)
        done.finally(() => { if (this.unloading.get(key) === done) this.unloading.delete(key) })
      },
    })
    return p
  }

  /** Runs `fn` on a conversation that is not unloaded while `fn` runs. */
  async using<T>(key: string, fn: (conv: Conversation) => T | Promise<T>): Promise<T> {
    this.arriving.set(key, (this.arriving.get(key) ?? 0) + 1)
    try {
      return await fn(await this.get(key))
    } finally {
      const n = this.arriving.get(key)! - 1
      if (n) this.arriving.set(key, n)
      else {
        this.arriving.delete(key)
        this.o.loaded?.recheck()
      }
    }
  }

  /** The conversations loaded so far. */
  async loaded(): Promise<Conversation[]> {
    const all = await Promise.all([...this.loading.values()].map(p => p.catch((): undefined => undefined)))
    return all.filter((c): c is Conversation => !!c)
  }

  async status(): Promise<ConversationStatus[]> {
    return (await this.loaded()).map(c => ({
      key: c.key, busy: c.busy, entries: c.entries.length,
      ...(c.wait ? { wait: { ...c.wait.declaration, armedAt: c.wait.armedAt, factsSeen: c.wait.factsSeen } } : {}),
    }))
  }

  /** Resolves when every conversation's history written so far is on disk. */
  async written(): Promise<void> {
    await Promise.all([...(await this.loaded()).map(c => c.written()), ...this.unloading.values()])
  }

  /** Stops every conversation (a turn in flight is aborted, sends settle, entries are written). */
  async stop(): Promise<void> {
    for (const r of this.residents.values()) this.o.loaded?.forget(r)
    await Promise.all([...(await this.loaded()).map(c => c.stop()), ...this.unloading.values()])
  }
}
