// ctx.kotodama: routes claimed messages to runtimes and lets other plugins extend them (SPEC §9).
import { resolve } from 'node:path'
import { Context, Service, Session, Universal } from 'koishi'
import { claimsBot, isClaimed } from '../claims/match'
import { normalizeTarget } from '../claims/channel-key'
import type { Config, ProfileConfig } from '../config/types'
import { checkConfig, type CheckedConfig } from '../config/validate'
import { ModelHealth } from '../model/failover'
import { createModel, type ModelHandle } from '../model/provider'
import { ReasoningModes } from '../model/reasoning-mode'
import { Extensions } from '../runtime/extensions'
import { type SchemeFactory, type ToolFactory } from '../tools/types'
import { Runtime, runtimeHome } from '../runtime/runtime'
import type { HistorySide, StorageKind } from '../history/sides'
import { storedRuntimes, type StoredRuntime } from '../runtime/stored-runtimes'
import { mayHavePendingWaits } from '../runtime/durable-waits'
import type { MigrationResult } from '../history/migrate'
import { HistoryStorage } from './storage'
import { standardWakeEngine } from '../attention/standard-wake'
import type { WakeEngineFactory } from '../attention/wake-engine'
import { koishiPlatform } from './platform'
import { Sandbox } from '../sandbox'
import { VisionCache } from '../model/vision'
import { TextCache } from '../resources/text'
import type { Platform } from '../runtime/types'
import { systemClock, type Clock } from '../util/clock'
import { KeyedQueue } from '../util/keyed-queue'
import { DescriptorBudget, descriptorSlots } from '../util/descriptor-budget'
import { LoadedConversations } from '../runtime/loaded-conversations'
import type { Logger } from '../util/logger'
import { Redactor } from '../util/redact'
import { workspaceScheme } from '../resources/schemes/workspace'
import { httpScheme } from '../resources/schemes/http'
import { McpManager, mcpScheme, type McpServerStatus } from '../mcp'
import { arrivalOf, sessionToFact } from './session-to-fact'

declare module 'koishi' {
  interface Context {
    kotodama: KotodamaService
  }
}

export interface WakeOptions {
  profile?: string
  bot: string
  channel: string
  reason: string
}

export { MigrateRefused } from './storage'

/** how long after start a missing database service is reported without a message asking for it */
const DATABASE_GRACE_MS = 3000

export class KotodamaService extends Service {
  static inject = { http: { required: false }, database: { required: false } }
  readonly extensions = new Extensions()
  readonly checked: CheckedConfig
  /** The random source of typing jitter; tests replace it to be deterministic. */
  random: () => number = Math.random
  /** Time for waits, typing and history; tests may replace it before the first message. */
  clock: Clock = systemClock
  /** Process-wide resources of this plugin instance, released when it stops. */
  readonly sandbox = new Sandbox()
  readonly vision = new VisionCache()
  readonly files = new TextCache()
  /** history files open at once, whatever the number of conversations (issue 15) */
  readonly descriptors = new DescriptorBudget(descriptorSlots())
  /** conversations whose history tail stays in memory, whatever the number of channels (issue 15) */
  readonly loaded = new LoadedConversations(1000)
  /** Bound to the plugin's own context once: a method called from another plugin never rebinds it. */
  private platform: Platform
  private models = new Map<string, ModelHandle>()
  private runtimes = new Map<string, Promise<Runtime>>()
  /** told when a runtime started or stopped (no key) or one of its conversations changed */
  private watchers = new Set<(runtime: Runtime, key?: string) => void>()
  private warned = new Set<string>()
  private ingest = new KeyedQueue()
  /** each bot's display name, read once (a session's properties are costly proxies), kept current by status events */
  private names = new Map<string, string | undefined>()
  /** failures and cool-downs per model id, for every runtime of this instance (made with the first runtime, after tests set the clock) */
  private health?: ModelHealth
  /** which models return their reasoning, as learned from their servers (SPEC §11) */
  private reasoning: ReasoningModes
  private log: Logger
  /** masks every configured secret in logs and in what the model sees */
  readonly redact: Redactor
  /** the configured MCP servers, started with the plugin (SPEC §14) */
  readonly mcp: McpManager
  /** where histories live: files or Koishi's database (docs/storage.md) */
  private storage: HistoryStorage
  /** runtimes stopping because their bot went away */
  private stopping = new Set<Promise<void>>()

  constructor(ctx: Context, public config: Config) {
    super(ctx, 'kotodama', true)
    const mcpSecrets = (config.mcp?.servers ?? []).flatMap(s => [...Object.values(s?.env ?? {}), ...Object.values(s?.headers ?? {})])
    this.redact = new Redactor([...(config.models ?? []).map(m => m?.apiKey), ...mcpSecrets])
    this.log = this.redact.logger(ctx.logger('kotodama'))
    this.platform = koishiPlatform(ctx)
    this.checked = checkConfig(config)
    for (const p of this.checked.problems) {
      const who = p.profile === undefined ? '' : p.leftOut ? `profile "${p.profile}": ` : `profile "${p.profile}" does not start: `
      this.log.warn('%sconfig %s %s', who, p.path, p.message)
    }
    this.reasoning = new ReasoningModes(resolve(this.dataDir(), 'models.json'), this.log)
    for (const [id, m] of this.checked.models) this.models.set(id, createModel(m, this.reasoning))
    // The first program otherwise pays ~100 ms to compile the sandbox.
    if (this.checked.profiles.some(p => p.codemode.enabled)) this.sandbox.warmUp().catch(e => this.log.warn('codemode sandbox could not warm up: %s', e?.message ?? e))
    // The built-in extensions go through the same public interface as everyone else's.
    this.registerWakeEngine('standard', standardWakeEngine)
    this.registerScheme('workspace', runtime => workspaceScheme(runtime.profile.workspace.roots))
    for (const scheme of ['http', 'https'] as const) {
      this.registerScheme(scheme, runtime => httpScheme(scheme, { ...runtime.profile.http, artifacts: runtime.artifacts, resources: runtime.resources }))
    }
    this.mcp = new McpManager(this.checked.mcpServers.values(), {
      logger: this.log, clock: this.lateClock(), addTool: (name, factory) => this.extensions.addTool(name, factory),
    })
    if (this.mcp.size) {
      this.registerScheme('mcp', runtime => mcpScheme({
        servers: runtime.profile.mcp ?? [], connection: id => this.mcp.connection(id), artifacts: runtime.artifacts, resources: runtime.resources,
      }))
    }
    // storage: database waits for the database service; runtimes on it stop when it goes
    this.storage = new HistoryStorage(ctx, {
      config, log: this.log, clock: () => this.clock, descriptors: this.descriptors, gone: () => this.stopWhere(r => !!r.options.historyTable),
    })
    // A middleware, not the message event: commands and other plugins that answer a message
    // consume it first, so `kotodama.status` never becomes a fact.
    ctx.middleware((session, next) => {
      this.onMessage(session)
      return next()
    })
    // Only a bot that went away stops its runtimes: CONNECT and RECONNECT are on the way to
    // online, and a bot's first start (CONNECT) comes after the message that started its runtime.
    ctx.on('bot-status-updated', bot => {
      this.names.set(`${bot.platform}:${bot.selfId}`, bot.user?.name)
      if (!bot.isActive) this.stopBot(`${bot.platform}:${bot.selfId}`)
      else if (bot.status === Universal.Status.ONLINE) this.restoreWaits(bot.sid)
    })
    ctx.inject(['database'], () => this.restoreWaits())
    ctx.on('bot-removed', bot => this.stopBot(`${bot.platform}:${bot.selfId}`))
  }

  /** The clock tests may set after construction, looked up at each use. */
  private lateClock(): Clock {
    return {
      now: () => this.clock.now(),
      monotonic: () => this.clock.monotonic(),
      setTimeout: (fn, ms) => this.clock.setTimeout(fn, ms),
      queueMicrotask: fn => this.clock.queueMicrotask(fn),
    }
  }

  /** Each MCP server, its state and how many tools it offers. */
  mcpStatus(): McpServerStatus[] {
    return this.mcp.status().map(s => s.error ? { ...s, error: this.redact.text(s.error) } : s)
  }

  get profiles(): ProfileConfig[] {
    return this.checked.profiles
  }

  /** The config's profiles that did not start, each with why (the log's lines: field path and problem). */
  notStarted(): { profile: ProfileConfig; problems: string[] }[] {
    const out = new Map<string, { profile: ProfileConfig; problems: string[] }>()
    for (const p of this.checked.problems) {
      if (p.index === undefined || p.leftOut) continue
      const profile = this.config.profiles?.[p.index]
      if (!profile?.id || this.profiles.some(q => q.id === profile.id)) continue
      if (!out.has(profile.id)) out.set(profile.id, { profile, problems: [] })
      out.get(profile.id)!.problems.push(`config ${p.path} ${p.message}`)
    }
    return [...out.values()]
  }

  /** Adds a scheme to every runtime; `registerScheme(factory)` or `registerScheme(scheme, factory)`. */
  registerScheme(scheme: string | SchemeFactory, factory?: SchemeFactory): () => void {
    const [name, f] = typeof scheme === 'string' ? [scheme, factory] : [(scheme as any).scheme as string | undefined, scheme]
    return this.track(this.extensions.addScheme(name, f))
  }

  registerTool(name: string, factory: ToolFactory): () => void {
    return this.track(this.extensions.addTool(name, factory))
  }

  registerWakeEngine(name: string, factory: WakeEngineFactory): () => void {
    return this.track(this.extensions.addWakeEngine(name, factory))
  }

  /** Removes the registration when the calling plugin is disposed. */
  private track(dispose: () => void): () => void {
    const caller: Context = (this as any)[Context.current] ?? this.ctx
    caller.on('dispose', dispose)
    return dispose
  }

  /** The first profile (in list order) that claims the channel owns it (SPEC §1). */
  owner(bot: string, channel: string): ProfileConfig | undefined {
    const claiming = this.profiles.filter(p => isClaimed(p.claims, bot, channel))
    if (claiming.length > 1) {
      const key = `${bot}\u0000${channel}`
      if (!this.warned.has(key)) {
        this.warned.add(key)
        this.log.warn('channel %s of bot %s is claimed by profiles %s; "%s" owns it', channel, bot, claiming.map(p => `"${p.id}"`).join(', '), claiming[0].id)
      }
    }
    return claiming[0]
  }

  /** Where (profile, bot) keeps its histories: the config's storage, or where a migration moved it. */
  storageOf(profile: ProfileConfig, bot: string): StorageKind {
    return this.storage.of(profile, bot)
  }

  private dataDir(): string {
    return resolve(this.ctx.root.baseDir ?? process.cwd(), this.config.dataDir)
  }

  runtime(profile: ProfileConfig, bot: string): Promise<Runtime> {
    const key = `${profile.id}\u0000${bot}`
    const pause = this.storage.pause(profile, bot)
    if (pause) return pause.then(() => this.runtime(profile, bot))
    let p = this.runtimes.get(key)
    if (!p) {
      if (this.storage.unavailable(this.storageOf(profile, bot))) return Promise.reject(new Error('storage is "database", but Koishi has no database service'))
      const runtime = new Runtime({
        profile, bot, dataDir: this.dataDir(),
        logger: this.log, platform: this.platform, models: this.models, extensions: this.extensions,
        limits: this.checked.codemode, random: () => this.random(), clock: this.clock, botName: this.ctx.bots[bot]?.user?.name,
        sandbox: this.sandbox, vision: this.vision, files: this.files, redact: this.redact,
        health: this.health ??= new ModelHealth(this.clock, this.log), descriptors: this.descriptors, loaded: this.loaded,
        historyTable: this.storage.tableOf(profile, bot),
      })
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
    }
    return p
  }

  /**
   * Facts of one conversation are stored in arrival order (SPEC §10): a message whose media are
   * still being registered holds back the messages after it, not other conversations.
   */
  private onMessage(session: Session): void {
    const arrival = arrivalOf(session)
    const { bot, channel, userId } = arrival
    if (!userId || userId === arrival.selfId) return
    const profile = this.owner(bot, channel)
    if (!profile || this.storage.unavailable(this.storageOf(profile, bot))) return
    const conversation = profile.mode === 'cross' ? 'cross' : channel
    this.ingest.run(`${profile.id}\u0000${bot}\u0000${conversation}`, async () => {
      // a runtime that stops under this message (a migration, a bot that went away) hands it to the next one
      for (let tries = 0; tries < 3; tries++) {
        const runtime = await this.runtime(profile, bot)
        if (await runtime.receive(await sessionToFact(session, runtime.assets, arrival, this.botName(bot, session)))) return
      }
      throw new Error('its runtime kept stopping')
    }).catch(e => this.log.error('a message of %s in %s could not be stored: %s', bot, channel, e?.stack ?? e))
  }

  private botName(bot: string, session: Session): string | undefined {
    if (!this.names.has(bot)) this.names.set(bot, session.bot?.user?.name)
    return this.names.get(bot)
  }

  /** An explicit wake-up that starts a turn now (SPEC §9). */
  async wake(o: WakeOptions): Promise<void> {
    const channel = normalizeTarget(o.channel)
    const profile = o.profile ? this.profiles.find(p => p.id === o.profile) : this.owner(o.bot, channel)
    if (!profile) throw new Error(o.profile ? `profile "${o.profile}" is not running` : `no profile claims channel ${channel} of bot ${o.bot}`)
    if (!isClaimed(profile.claims, o.bot, channel)) throw new Error(`profile "${profile.id}" does not claim channel ${channel} of bot ${o.bot}`)
    const runtime = await this.runtime(profile, o.bot)
    await runtime.wake(channel, o.reason)
  }

  /**
   * The running runtimes whose bot is still there. A bot can vanish without an event (the
   * sandbox drops a closed page's bot silently): its runtimes are stopped here (docs/console.md).
   */
  async list(): Promise<Runtime[]> {
    const all = (await Promise.all([...this.runtimes.values()].map(p => p.catch((): undefined => undefined)))).filter(Boolean)
    const gone = all.filter(r => !this.ctx.bots[r.bot])
    for (const bot of new Set(gone.map(r => r.bot))) this.stopBot(bot)
    return all.filter(r => !gone.includes(r))
  }

  /** Every (profile, bot) with a home or stored history, running or not; none is started (docs/console.md). */
  stored(): Promise<StoredRuntime[]> {
    const unchecked = this.notStarted().map(n => n.profile)
    return storedRuntimes({ dataDir: this.dataDir(), profiles: this.profiles, unchecked, table: this.storage.listedTable(), logger: this.log })
  }

  /** The home folder of (profile, bot), running or not (SPEC §2). */
  homeOf(profile: ProfileConfig, bot: string): string {
    return runtimeHome(this.dataDir(), profile.id, bot)
  }

  /** The histories of (profile, bot) as its runtime would open them, without starting it; none while its database is missing. */
  storedHistory(profile: ProfileConfig, bot: string): HistorySide | undefined {
    return this.storage.side(profile, bot, this.homeOf(profile, bot))
  }

  /** Calls `fn` when a runtime starts or stops (`key` undefined) or a conversation changes. */
  watch(fn: (runtime: Runtime, key?: string) => void): () => void {
    this.watchers.add(fn)
    return () => this.watchers.delete(fn)
  }

  private stopBot(bot: string): void {
    this.stopWhere(r => r.bot === bot)
  }

  /** Stops the runtimes `which` picks; the console hears of each (a message on its way in goes to the next runtime). */
  private stopWhere(which: (r: Runtime) => boolean): void {
    for (const [key, p] of this.runtimes) {
      p.then(r => {
        if (!which(r) || this.runtimes.get(key) !== p) return
        this.runtimes.delete(key)
        this.watchers.forEach(w => w(r))
        // dispose waits for it too: nothing of this instance writes after its stop (issue 21)
        const done = r.stop().finally(() => this.stopping.delete(done))
        this.stopping.add(done)
        return done
      }).catch(() => {})
    }
  }

  /** Moves the histories of (profile, bot) to `to` (kotodama.migrate, docs/storage.md). */
  migrate(profile: ProfileConfig, bot: string, to: StorageKind): Promise<MigrationResult> {
    const key = `${profile.id}\u0000${bot}`
    const running = (): Promise<Runtime | undefined> => this.runtimes.get(key)?.catch((): undefined => undefined) ?? Promise.resolve(undefined)
    return this.storage.migrate(profile, bot, to, this.homeOf(profile, bot), {
      busy: async () => {
        const r = await running()
        return !!r && (await r.status()).some(c => c.busy)
      },
      stop: async () => {
        const r = await running()
        if (!r || !this.runtimes.get(key)) return
        this.runtimes.delete(key)
        await r.stop()
      },
    })
  }

  /** Starts the runtimes of online bots (or of `bot`) whose home lists pending waits: they fire without a message (SPEC §15). */
  private restoreWaits(bot?: string): void {
    for (const b of this.ctx.bots) {
      if (b.status !== Universal.Status.ONLINE || (bot && b.sid !== bot)) continue
      for (const profile of this.profiles.filter(p => claimsBot(p.claims, b.sid))) {
        mayHavePendingWaits(this.homeOf(profile, b.sid)).then(yes => {
          if (yes && this.ctx.scope.isActive && (this.storageOf(profile, b.sid) !== 'database' || this.storage.table)) return this.runtime(profile, b.sid)
        }).catch(() => {})
      }
    }
  }

  protected start(): void {
    this.restoreWaits()
    this.mcp.start()
    // a database plugin started with the app may provide its service after this one starts
    this.ctx.setTimeout(() => this.storage.unavailable(this.config.storage), DATABASE_GRACE_MS)
  }

  protected async stop(): Promise<void> {
    // messages already received are stored before their runtimes stop
    await this.ingest.idle()
    const all = [...this.runtimes.values()]
    this.runtimes.clear()
    await Promise.all([...all.map(p => p.then(r => r.stop()).catch(() => {})), ...[...this.stopping].map(p => p.catch(() => {}))])
    await Promise.all([this.sandbox.shutdown(), this.mcp.stop(), this.reasoning.idle()])
    this.vision.clear()
    this.files.clear()
  }
}

