// History after downtime (SPEC §19): when a runtime starts, when its bot comes online, and at the
// first message of a channel since then, what was said there meanwhile is read from the platform
// (a HistorySource, one per adapter at the edge) and stored before anything newer, in the
// conversation's own ingest queue. Each channel is pulled at most once per epoch (a runtime's
// start, its bot coming online), and at most a few channels at once. A start or a reconnect pulls
// only the conversations active within history.pullMaxAgeHours (docs/platforms.md): 2,000 stored
// groups are not 2,000 platform calls; a quieter one is pulled at its next message.
import { isDirectKey, rawChannel } from '../claims/channel-key'
import { claimsBot } from '../claims/match'
import { DEFAULT_HISTORY } from '../config/defaults'
import type { ProfileConfig } from '../config/types'
import type { Fact } from '../history/entries'
import { BackgroundQueue, Dropped } from '../util/background-queue'
import type { Logger } from '../util/logger'
import { TIMED_OUT, within } from '../util/within'
import { pulledFact, type PulledFactKit } from './pulled-fact'
import type { ChannelPlace, HistorySource, LiveArrival, PullingRuntime, PullPoint } from './ports'
import type { MessageMark, PullRequest } from './window'

export interface HistoryPullDeps<R extends PullingRuntime> {
  log: Logger
  profiles(): ProfileConfig[]
  /** the profile that owns a channel now (a stored conversation may have changed hands) */
  owner(bot: string, channel: string): ProfileConfig | undefined
  /** the platform's history of bot `platform:selfId`, or why it has none; undefined while the bot is unknown */
  source(bot: string): HistorySource | string | undefined
  /** what rendering a pulled message of `runtime` needs; undefined while its bot is unknown */
  kit(runtime: R): PulledFactKit | undefined
  /** the running runtime of (profile, bot), if any */
  running(profile: ProfileConfig, bot: string): Promise<R | undefined>
  /** runs `task` in the ingest queue of one conversation, after the messages queued before it */
  queue(profile: ProfileConfig, bot: string, conversation: string, task: () => Promise<void>): Promise<void>
  /** false once the plugin is going away: queued pulls are dropped */
  active(): boolean
  /** channels pulled at once; default 4 */
  concurrency?: number
  /** ms one channel's pull may take before its answer is given up; default 15 s */
  budgetMs?: number
}

interface Epoch {
  epoch: number
  /** channels pulled (or being pulled) in this epoch */
  done: Set<string>
  /** the platform's history, or why there is none (resolved once the bot is known) */
  source?: HistorySource | string
}

const HOUR = 3_600_000
/** pulls waiting at most; past it the oldest waiting is skipped, and its channel is pulled at its next live message */
const MAX_WAITING = 1000

export class HistoryPull<R extends PullingRuntime = PullingRuntime> {
  private pulls: BackgroundQueue
  private epochs = new Map<string, number>()
  private states = new WeakMap<R, Epoch>()

  constructor(private deps: HistoryPullDeps<R>) {
    this.pulls = new BackgroundQueue({
      concurrency: deps.concurrency ?? 4, maxWaiting: MAX_WAITING,
      onFull: max => deps.log.warn('more than %d history pulls wait; the oldest waiting are skipped until their channel\'s next message', max),
    })
  }

  /** the most channels pulled at once so far */
  get peak(): number {
    return this.pulls.peak
  }

  /** A runtime started: its recently active conversations are pulled, each in its ingest queue. Later calls for it do nothing. */
  started(runtime: R): void {
    if (this.states.has(runtime)) return
    this.states.set(runtime, { epoch: this.epochOf(runtime.bot), done: new Set() })
    this.pullStored(runtime)
  }

  /** A bot came online: a new epoch for its runtimes; those running pull their recently active conversations. */
  online(sid: string): void {
    this.epochs.set(sid, this.epochOf(sid) + 1)
    for (const profile of this.deps.profiles()) {
      if (!claimsBot(profile.claims, sid)) continue
      this.deps.running(profile, sid).then(r => { if (r && this.states.has(r)) this.pullStored(r) }).catch(() => {})
    }
  }

  /**
   * Before a live message is stored, in its ingest queue: the first of its channel since the epoch
   * began pulls what was said before it. undefined (nothing to wait for) for every other message.
   * `arrival` is asked only then: every other message makes nothing.
   */
  before(runtime: R, channel: string, arrival: () => LiveArrival): Promise<void> | undefined {
    if (!this.states.has(runtime)) this.started(runtime)
    if (!this.claim(runtime, channel)) return undefined
    const { id, at, ...place } = arrival()
    const mark: MessageMark = { id, at: at || runtime.options.clock.now() }
    // the live message is stored whatever happens here
    return this.pulls.run(async () => this.pullChannel(runtime, place, await runtime.pulled.last(channel), mark))
      .catch(e => {
        if (e instanceof Dropped) this.states.get(runtime)?.done.delete(channel)
        this.failed(runtime, channel, e)
      })
  }

  private epochOf(sid: string): number {
    return this.epochs.get(sid) ?? 0
  }

  /** Whether `channel` is still to be pulled in this epoch; from now on it is not. */
  private claim(runtime: R, channel: string): boolean {
    const state = this.states.get(runtime)!
    const epoch = this.epochOf(runtime.bot)
    if (state.epoch !== epoch) {
      state.epoch = epoch
      state.done.clear()
    }
    if (typeof this.sourceOf(runtime, state) !== 'function' || state.done.has(channel)) return false
    state.done.add(channel)
    return true
  }

  private sourceOf(runtime: R, state: Epoch): HistorySource | string | undefined {
    if (state.source !== undefined) return state.source
    const history = runtime.profile.history ?? DEFAULT_HISTORY
    if (!history.pull || !(history.pullMax > 0)) return state.source = 'history.pull is off'
    return state.source = this.deps.source(runtime.bot)
  }

  /** The conversations of `runtime` active recently, queued behind the messages already on their way in. */
  private pullStored(runtime: R): void {
    const state = this.states.get(runtime)!
    const source = this.sourceOf(runtime, state)
    if (typeof source !== 'function') {
      if (source) this.deps.log.debug('profile %s on %s pulls no history: %s', runtime.profile.id, runtime.bot, source)
      return
    }
    const history = runtime.profile.history ?? DEFAULT_HISTORY
    const since = runtime.options.clock.now() - history.pullMaxAgeHours * HOUR
    runtime.pulled.conversations(since).then(keys => {
      for (const key of keys) {
        this.deps.queue(runtime.profile, runtime.bot, key, () => this.pulls.run(() => this.pullConversation(runtime, key)))
          .catch(e => this.failed(runtime, key, e))
      }
    }, e => this.failed(runtime, 'its stored conversations', e))
  }

  private async pullConversation(runtime: R, key: string): Promise<void> {
    if (!this.deps.active()) return
    for (const point of await runtime.pulled.points(key)) {
      if (this.deps.owner(runtime.bot, point.channel)?.id !== runtime.profile.id || !this.claim(runtime, point.channel)) continue
      await this.pullChannel(runtime, placeOf(point), point.last)
    }
  }

  /** Reads one channel's history since `last` (and before `live`) and stores it; a failure is logged, never thrown. */
  private async pullChannel(runtime: R, place: ChannelPlace, last: Fact | undefined, live?: MessageMark): Promise<void> {
    const who = `profile ${runtime.profile.id}: the history of ${place.channel} on ${runtime.bot}`
    try {
      const source = this.states.get(runtime)?.source
      const kit = this.deps.kit(runtime)
      if (!kit || typeof source !== 'function' || !this.deps.active()) return
      const history = runtime.profile.history ?? DEFAULT_HISTORY
      let expired = false
      const req: PullRequest = {
        channel: place.channel, channelId: place.channelId, direct: place.direct,
        ...(last ? { since: { id: last.id, at: last.at } } : {}), ...(live ? { before: live } : {}),
        max: history.pullMax, notBefore: runtime.options.clock.now() - history.pullMaxAgeHours * HOUR, expired: () => expired,
      }
      const budget = this.deps.budgetMs ?? 15_000
      const answer = await within(source(req), budget)
      // past the budget the source makes no further call
      if (answer === TIMED_OUT) expired = true
      const fetched = answer === TIMED_OUT ? undefined : answer
      if (!fetched) return this.deps.log.warn('%s: no answer within %d s; nothing was pulled', who, budget / 1000)
      if (fetched.problems.length) this.deps.log.warn('%s: %s', who, fetched.problems.join('; '))
      if (!fetched.messages.length) return
      const facts: Fact[] = []
      for (const m of fetched.messages) facts.push(await pulledFact(m, place, kit))
      const stored = await runtime.pulled.store(facts)
      const outcome = stored === false ? 'the runtime stopped' : `${stored} new`
      this.deps.log.debug('%s: %d message(s) read in %d call(s), %s', who, facts.length, fetched.calls, outcome)
    } catch (e: any) {
      this.deps.log.warn('%s could not be pulled: %s', who, e?.message ?? e)
    }
  }

  private failed(runtime: R, what: string, e: any): void {
    // told once by the queue
    if (e instanceof Dropped) return
    this.deps.log.warn('profile %s on %s: the history of %s could not be pulled: %s', runtime.profile.id, runtime.bot, what, e?.message ?? e)
  }
}

function placeOf(p: PullPoint): ChannelPlace {
  const last = p.last
  return {
    channel: p.channel, channelId: last?.rawChannel ?? rawChannel(p.channel), direct: last?.direct ?? isDirectKey(p.channel),
    ...(last?.guildId ? { guildId: last.guildId } : {}), ...(last?.channelName ? { channelName: last.channelName } : {}),
  }
}
