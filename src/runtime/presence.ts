// What the platform says about a runtime's channels besides messages (SPEC §19): a message
// recalled, the bot muted or unmuted, the owner's pause. Facts (pokes, members joining) go through
// Runtime.receive like messages; these change what is already there.
import { formatTime } from '../history/render-facts'
import type { Logger } from '../util/logger'
import type { Conversation } from './conversation'
import type { ConversationStatus } from './conversations'
import { RecalledBook } from '../history/recalled-book'
import type { Clock } from '../util/clock'
import { MuteBook, type MuteState } from './mutes'

export interface PresenceDeps {
  home: string
  clock: Clock
  /** runs `fn` with the conversation of `channel`, loaded */
  using<T>(channel: string, fn: (conv: Conversation) => T | Promise<T>): Promise<T>
  logger: Logger
  who: string
}

export class RuntimePresence {
  private mutes: MuteBook
  private recalls: RecalledBook

  constructor(private d: PresenceDeps) {
    this.mutes = new MuteBook(d.home, d.clock, d.logger)
    this.recalls = new RecalledBook(d.home, d.logger)
  }

  async load(): Promise<void> {
    await Promise.all([this.mutes.load(), this.recalls.load(this.d.logger)])
  }

  async stop(): Promise<void> {
    await Promise.all([this.mutes.stop(), this.recalls.stop()])
  }

  /** The platform says message `id` of `channel` was recalled. */
  async recall(channel: string, id: string): Promise<void> {
    this.recalls.add(channel, id, this.d.clock.now())
    // the model reads "[recalled]" from now on: the conversation's tail masks it (history/recalled.ts)
    await this.d.using(channel, conv => conv.append([{ type: 'recalled', at: conv.clock.now(), id }]))
  }

  wasRecalled(channel: string, id: string): boolean {
    return this.recalls.has(channel, id)
  }

  isMuted(channel: string): boolean {
    return !!this.mutes.of(channel)
  }

  /**
   * Mutes the mind in `channel` until `until` (ms; not in the future: lifts it). The owner's pause
   * never shortens or lifts the platform's ban. Its conversation gets a note, so the mind knows
   * later why it was silent. Returns the channel's mute afterwards.
   */
  async mute(channel: string, until: number, by: MuteState['by'], now: number): Promise<MuteState | undefined> {
    const was = this.mutes.of(channel)
    if (by === 'owner' && was?.by === 'platform' && was.until >= until) return was
    if (!this.mutes.set(channel, until, by)) return was
    const is = this.mutes.of(channel)
    this.d.logger.info('%s: channel %s is %s', this.d.who, channel, is ? `muted (${by}) until ${new Date(until).toISOString()}` : 'no longer muted')
    const text = is
      ? `[${by === 'platform' ? 'the platform muted you here' : 'the owner paused you here'} until ${formatTime(until)}; messages are still stored]`
      : was && was.until > now ? `[${was.by === 'platform' ? 'the platform unmuted you here' : 'the owner\'s pause here ended'}]` : undefined
    if (text) await this.d.using(channel, conv => conv.append([{ type: 'note', at: now, kind: 'info', text }]))
    return is
  }

  mutedUntil(channel: string): MuteState | undefined {
    return this.mutes.of(channel)
  }

  /** Conversation statuses with their mute (channel mode: the key is the channel). */
  annotate(statuses: ConversationStatus[]): ConversationStatus[] {
    return statuses.map(s => {
      const m = this.mutes.of(s.key)
      return m ? { ...s, muted: { until: m.until, by: m.by } } : s
    })
  }

  muted(): [string, MuteState][] {
    return this.mutes.list()
  }
}
