// What comes in from Koishi (SPEC §9, §10, §15): claimed messages stored as facts in arrival order
// per conversation, bots going away (their runtimes stop) and coming online (their pending waits
// re-arm), the database arriving.
import { Context, Session, Universal } from 'koishi'
import { claimsBot } from '../claims/match'
import type { ProfileConfig } from '../config/types'
import type { PartRecords } from '../part/records'
import { hasWorkWithoutMessage } from '../runtime/pending-work'
import type { Runtime } from '../runtime/runtime'
import { KeyedQueue } from '../util/keyed-queue'
import type { RuntimeRegistry } from './runtime-registry'
import type { Logger } from '../util/logger'
import { historyPull, type HistoryPull } from './history-pull'
import { arrivalOf, liveOf, sessionToFact, voiceOrigin, type Arrival } from './inbound/session-to-fact'
import { GuildNames } from './inbound/guild-names'
import { listenToNotices } from './presence/notices'
import { listenToReactions } from './presence/reactions'
import { hearingFor, kitFor } from './inbound/kit-for'
import { runtimeKey } from '../claims/bot-id'
import { conversationKey } from '../claims/channel-key'

export interface InboundDeps {
  log: Logger
  profiles(): ProfileConfig[]
  owner(bot: string, channel: string): ProfileConfig | undefined
  /** the profile's histories cannot be stored now (storage: database without one) */
  unavailable(profile: ProfileConfig, bot: string): boolean
  /** the same, asked without logging (a restore at boot, before a database plugin started) */
  storable(profile: ProfileConfig, bot: string): boolean
  runtime(profile: ProfileConfig, bot: string): Promise<Runtime>
  homeOf(profile: ProfileConfig, bot: string): string
  /** the parts' tables of (profile, bot) under storage: database (their tasks), else undefined */
  recordsOf(profile: ProfileConfig, bot: string): PartRecords | undefined
  /** the running runtimes: stopped when their bot goes, watched for starts (history pull) */
  runtimes: Pick<RuntimeRegistry, 'running' | 'watch' | 'stopWhere'>
  now(): number
}

export class Inbound {
  private ingest = new KeyedQueue()
  /** each bot's display name, read once (a session's properties are costly proxies), kept current by status events */
  private names = new Map<string, string | undefined>()
  private guildNames: GuildNames
  /** messages said while the bot was away, pulled before anything newer is stored (SPEC §19) */
  private pulls: HistoryPull<Runtime>

  constructor(private ctx: Context, private deps: InboundDeps) {
    this.guildNames = new GuildNames(() => deps.now())
    this.pulls = historyPull(ctx, {
      log: deps.log, profiles: () => deps.profiles(), owner: (bot, channel) => deps.owner(bot, channel),
      running: (p, bot) => deps.runtimes.running(p, bot), watch: fn => deps.runtimes.watch(fn),
      botName: bot => this.botName(bot), hearing: hearingFor, queue: (p, bot, conv, task) => this.queue(p, bot, conv, task),
    })
    const stopBot = (sid: string) => deps.runtimes.stopWhere(r => r.bot === sid)
    // A middleware, not the message event: commands and other plugins that answer a message
    // consume it first, so `kotodama.status` never becomes a fact.
    ctx.middleware((session, next) => {
      this.onMessage(session)
      return next()
    })
    // Only a bot that went away stops its runtimes: CONNECT and RECONNECT are on the way to
    // online, and a bot's first start (CONNECT) comes after the message that started its runtime.
    ctx.on('bot-status-updated', bot => {
      this.names.set(bot.sid, bot.user?.name)
      if (!bot.isActive) stopBot(bot.sid)
      else if (bot.status === Universal.Status.ONLINE) { this.pulls.online(bot.sid); this.restoreWaits(bot.sid) }
    })
    ctx.inject(['database'], () => this.restoreWaits())
    const run = (bot: string, channel: string, task: (r: Runtime) => Promise<unknown>) => this.run(bot, channel, task)
    const notices = { run, log: deps.log, now: () => deps.now() }
    listenToNotices(ctx, notices)
    listenToReactions(ctx, notices)
    ctx.on('bot-removed', bot => stopBot(bot.sid))
  }

  /**
   * Facts of one conversation are stored in arrival order (SPEC §10): a message whose media are
   * still being registered holds back the messages after it, not other conversations.
   */
  private onMessage(session: Session): void {
    const arrival = arrivalOf(session)
    const { bot, channel, userId } = arrival
    if (!userId || userId === arrival.selfId) return
    const profile = this.deps.owner(bot, channel)
    if (!profile || this.deps.unavailable(profile, bot)) return
    const conversation = conversationKey(profile.mode, channel)
    this.queue(profile, bot, conversation, async () => {
      // a runtime that stops under this message (a migration, a bot that went away) hands it to the next one
      for (let tries = 0; tries < 3; tries++) {
        const runtime = await this.deps.runtime(profile, bot)
        // awaited only when there is a pull: a tick less for every other message
        const pulling = this.pulls.before(runtime, channel, () => liveOf(arrival))
        if (pulling) await pulling
        const kit = kitFor(runtime, () => session.bot, this.deps.log, voiceOrigin(arrival))
        const group = await this.groupName(arrival, session)
        if (await runtime.receive(await sessionToFact(session, kit, arrival, this.botName(bot, session), group))) return
      }
      throw new Error('its runtime kept stopping')
    }).catch(e => this.deps.log.error('a message of %s in %s could not be stored: %s', bot, channel, e?.stack ?? e))
  }

  /**
   * Runs `task` with the runtime of (bot, channel) in that conversation's arrival order (a notice
   * after the message it names); false when no profile claims the channel or it cannot be stored now.
   */
  run(bot: string, channel: string, task: (runtime: Runtime) => Promise<unknown>): boolean {
    const profile = this.deps.owner(bot, channel)
    if (!profile || this.deps.unavailable(profile, bot)) return false
    this.queue(profile, bot, conversationKey(profile.mode, channel), async () => task(await this.deps.runtime(profile, bot)))
      .catch(e => this.deps.log.error('a notice of %s in %s could not be handled: %s', bot, channel, e?.stack ?? e))
    return true
  }

  /** A conversation's ingest queue: its messages and pulls, one after another. */
  private queue<T>(p: ProfileConfig, bot: string, conv: string, task: () => Promise<T>) {
    return this.ingest.run(`${runtimeKey(p.id, bot)}\u0000${conv}`, task)
  }

  /** The group's name when the event does not carry it (OneBot's do not): asked of the platform (guild-names.ts). */
  private groupName(a: Arrival, session: Session): Promise<string | undefined> | undefined {
    const guild = a.event.guild?.id
    if (a.isDirect || !guild || a.event.channel?.name) return undefined
    return this.guildNames.of(a.bot, session.bot, guild)
  }

  botName(bot: string, session?: Session): string | undefined {
    if (!this.names.has(bot) && session) this.names.set(bot, session.bot?.user?.name)
    return this.names.get(bot)
  }

  /**
   * Starts the runtimes of online bots (or of `bot`) whose home holds work due without a message:
   * pending waits (SPEC §15), a part's (an idle wake, SPEC §21)
   */
  restoreWaits(bot?: string): void {
    for (const b of this.ctx.bots) {
      if (b.status !== Universal.Status.ONLINE || (bot && b.sid !== bot)) continue
      for (const profile of this.deps.profiles().filter(p => claimsBot(p.claims, b.sid))) {
        hasWorkWithoutMessage(this.deps.homeOf(profile, b.sid), profile, this.deps.recordsOf(profile, b.sid)).then(yes => {
          if (yes && this.ctx.scope.isActive && this.deps.storable(profile, b.sid)) return this.deps.runtime(profile, b.sid)
        }).catch(() => {})
      }
    }
  }

  /** Resolves when the messages already received are stored. */
  idle(): Promise<void> {
    return this.ingest.idle()
  }
}
