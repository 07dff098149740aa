// Channels where the mind may not speak for a while (SPEC §19): the platform muted the bot there
// (a ban notice), or the owner paused it (`kotodama.pause`). Facts are still stored; wakes are
// held. Kept in the runtime home's `mutes.json`, so a month-long ban outlives a restart and a
// history tail that no longer holds the notice.
import { join } from 'node:path'
import type { Clock } from '../util/clock'
import { KeyedFile } from '../util/keyed-file'
import type { Logger } from '../util/logger'

export const MUTES_FILE = 'mutes.json'

export interface MuteState {
  /** when it ends (ms) */
  until: number
  /** the platform's ban, or the owner's pause */
  by: 'platform' | 'owner'
  since: number
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const muteValue = (v: any): MuteState | undefined =>
  v && typeof v === 'object' && isNumber(v.until) && isNumber(v.since) && (v.by === 'platform' || v.by === 'owner')
    ? { until: v.until, by: v.by, since: v.since } : undefined

export class MuteBook {
  private file: KeyedFile<MuteState>

  constructor(home: string, private clock: Clock, private logger: Logger) {
    this.file = new KeyedFile({ path: join(home, MUTES_FILE), field: 'mutes', what: 'mute book', value: muteValue, logger })
  }

  async load(): Promise<void> {
    const problem = await this.file.load()
    if (problem) this.logger.warn('mute book %s %s; no channel is muted until a new notice or pause', this.file.path, problem)
    this.sweep()
  }

  /** The channel's mute while it lasts. */
  of(channel: string): MuteState | undefined {
    const m = this.file.map.get(channel)
    if (!m) return undefined
    if (m.until > this.clock.now()) return m
    this.file.map.delete(channel)
    this.file.changed()
    return undefined
  }

  /** Mutes `channel` until `until`; `until` not in the future lifts it. Returns whether anything changed. */
  set(channel: string, until: number, by: MuteState['by']): boolean {
    const now = this.clock.now()
    if (until <= now) {
      if (!this.file.map.delete(channel)) return false
    } else this.file.map.set(channel, { until, by, since: now })
    this.file.changed()
    return true
  }

  /** Every channel muted now. */
  list(): [string, MuteState][] {
    this.sweep()
    return [...this.file.map]
  }

  idle(): Promise<void> {
    return this.file.idle()
  }

  stop(): Promise<void> {
    return this.file.stop()
  }

  private sweep(): void {
    const now = this.clock.now()
    let gone = false
    for (const [k, m] of this.file.map) if (m.until <= now) gone = this.file.map.delete(k) || gone
    if (gone) this.file.changed()
  }
}
