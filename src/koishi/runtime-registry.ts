// The service's running runtimes, one per (profile, bot): started on first use, stopped when their
// bot goes away or their storage does, each start and stop told to the watchers (the console).
import type { ProfileConfig } from '../config/types'
import { Runtime, type RuntimeOptions } from '../runtime/runtime'
import type { Logger } from '../util/logger'
import { runtimeKey } from '../claims/bot-id'

export type RuntimeWatcher = (runtime: Runtime, key?: string) => void

export class RuntimeRegistry {
  private runtimes = new Map<string, Promise<Runtime>>()
  /** runtimes stopping because their bot or storage went away */
  private stopping = new Set<Promise<void>>()
  /** told when a runtime started or stopped (no key) or one of its conversations changed */
  private watchers = new Set<RuntimeWatcher>()

  constructor(private log: Logger) {}

  /** The runtime of (profile, bot), started with `options()` when it is not running. */
  get(profile: ProfileConfig, bot: string, options: () => RuntimeOptions): Promise<Runtime> {
    const key = keyOf(profile, bot)
    let p = this.runtimes.get(key)
    if (p) return p
    let runtime: Runtime
    try {
      runtime = new Runtime(options())
    } catch (e) {
      return Promise.reject(e)
    }
    // A runtime of the same home that is still stopping (here or in a disposed instance) finishes first.
    p = runtime.start().then(() => {
      this.log.debug('profile %s runs on %s (home %s)', profile.id, bot, runtime.home)
      runtime.watch(key => this.watchers.forEach(w => w(runtime, key)))
      this.watchers.forEach(w => w(runtime))
      return runtime
    })
    p.catch(e => {
      this.runtimes.delete(key)
      this.log.error('profile %s on %s could not start: %s', profile.id, bot, e?.message ?? e)
    })
    this.runtimes.set(key, p)
    return p
  }

  /** The running runtime of (profile, bot), if any. */
  running(profile: ProfileConfig, bot: string): Promise<Runtime | undefined> {
    return this.runtimes.get(keyOf(profile, bot))?.catch((): undefined => undefined) ?? Promise.resolve(undefined)
  }

  async all(): Promise<Runtime[]> {
    return (await Promise.all([...this.runtimes.values()].map(p => p.catch((): undefined => undefined)))).filter((r): r is Runtime => !!r)
  }

  watch(fn: RuntimeWatcher): () => void {
    this.watchers.add(fn)
    return () => this.watchers.delete(fn)
  }

  /** Stops the runtimes `which` picks; the console hears of each (a message on its way in goes to the next runtime). */
  stopWhere(which: (r: Runtime) => boolean): void {
    for (const [key, p] of this.runtimes) {
      p.then(r => {
        if (!which(r) || this.runtimes.get(key) !== p) return
        this.runtimes.delete(key)
        this.watchers.forEach(w => w(r))
        // dispose waits for it too: nothing of this instance writes after its stop (issue 21)
        const done = this.stopOne(r).finally(() => this.stopping.delete(done))
        this.stopping.add(done)
        return done
      }).catch(() => {})
    }
  }

  /** Takes (profile, bot)'s runtime out and stops it (a migration moves its histories next). */
  async take(profile: ProfileConfig, bot: string): Promise<void> {
    const key = keyOf(profile, bot)
    const r = await this.running(profile, bot)
    if (!r || !this.runtimes.get(key)) return
    this.runtimes.delete(key)
    await r.stop()
  }

  /** Stops every runtime, those already stopping included. */
  async stop(): Promise<void> {
    const all = [...this.runtimes.values()]
    this.runtimes.clear()
    // a runtime that did not start was logged then; one that fails to stop is logged here
    await Promise.all([...all.map(p => p.then(r => this.stopOne(r), () => {})), ...this.stopping])
  }

  /** Stops `r`; a failure is logged with its profile and bot, never thrown at the caller. */
  private stopOne(r: Runtime): Promise<void> {
    return r.stop().catch(e => this.log.error('profile %s on %s did not stop cleanly: %s', r.profile.id, r.bot, e?.message ?? e))
  }
}

const keyOf = (profile: ProfileConfig, bot: string) => runtimeKey(profile.id, bot)
