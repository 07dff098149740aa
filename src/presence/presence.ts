// What the platform says about a runtime's channels besides messages (SPEC §19): a message
// recalled, the bot muted or unmuted, the owner's pause. Facts (pokes, members joining) go through
// Runtime.receive like messages; these change what is already there.
import { formatTime } from '../history/render-facts'
import type { Entry } from '../history/entries'
import { RecalledBook } from '../history/recalled-book'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { MuteBook, type MuteState } from './mutes'

export interface PresenceDeps {
  home: string
  clock: Clock
  logger: Logger
  who: string
  /** budgets.timezone: the zone of the time a mute note shows ('' : the host's) */
  zone: string
  /** the conversation `channel` belongs to (cross mode: one for every channel) */
  conversationOf(channel: string): string
  /** appends to a conversation's history, loading it if need be */
  append(conversation: string, entries: Entry[]): Promise<void>
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
    await this.d.append(this.d.conversationOf(channel), [{ type: 'recalled', at: this.d.clock.now(), id }])
  }

  wasRecalled(channel: string, id: string): boolean {
    return this.recalls.has(channel, id)
  }

  /** The platform's ban of the channel, or the owner's pause of its conversation (all its channels in cross mode). */
  isMuted(channel: string): boolean {
    return !!this.mutes.of(channel) || !!this.mutes.of(this.d.conversationOf(channel))
  }

  /**
   * Mutes the mind until `until` (ms; not in the future: lifts it): the platform's ban mutes
   * `channel`, the owner's pause its whole conversation. The pause never shortens or lifts the
   * platform's ban. The conversation gets a note, so the mind knows later why it was silent.
   * Returns the mute afterwards.
   */
  async mute(channel: string, until: number, by: MuteState['by'], now: number): Promise<MuteState | undefined> {
    const conversation = this.d.conversationOf(channel)
    const at = by === 'owner' ? conversation : channel
    const ban = this.mutes.of(channel)
    if (by === 'owner' && ban?.by === 'platform' && ban.until >= until) return ban
    const was = this.mutes.of(at)
    if (!this.mutes.set(at, until, by)) return was
    const is = this.mutes.of(at)
    this.d.logger.info('%s: %s is %s', this.d.who, at, is ? `muted (${by}) until ${new Date(until).toISOString()}` : 'no longer muted')
    const muted = by === 'platform' ? 'the platform muted you here' : 'the owner paused you here'
    const text = is
      ? `[${muted} until ${formatTime(until, this.d.zone)}; messages are still stored]`
      : was && was.until > now ? `[${was.by === 'platform' ? 'the platform unmuted you here' : 'the owner\'s pause here ended'}]` : undefined
    if (text) await this.d.append(conversation, [{ type: 'note', at: now, kind: 'info', text }])
    return is
  }

  /** The mute of a channel or conversation key (the console's and status's view). */
  mutedUntil(key: string): MuteState | undefined {
    return this.mutes.of(key)
  }

  muted(): [string, MuteState][] {
    return this.mutes.list()
  }
}
