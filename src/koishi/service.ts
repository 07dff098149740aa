// ctx.kotodama: routes claimed messages to runtimes and lets other plugins extend them (SPEC §9).
import { resolve } from 'node:path'
import { Context, Service } from 'koishi'
import { normalizeTarget } from '../claims/channel-key'
import type { Config, ProfileConfig } from '../config/types'
import type { CheckedConfig } from '../config/validate'
import { checkConfig, partSecrets } from '../runtime/config-of-parts'
import { ModelHealth } from '../model/failover'
import { createModels, type ModelHandle } from './chatluna'
import { ReasoningModes } from '../model/reasoning-mode'
import { Extensions } from '../runtime/extensions'
import type { SchemeFactory, ToolFactory } from '../tools/types'
import { Runtime, runtimeHome } from '../runtime/runtime'
import type { HistorySide, StorageKind } from '../history/sides'
import { storedRuntimes, type StoredRuntime } from '../runtime/stored-runtimes'
import type { MigrationResult } from '../history/migrate'
import type { PartRecords } from '../part/records'
import type { WakeEngineFactory } from '../attention/wake-engine'
import { Sandbox } from '../sandbox'
import { VisionCache } from '../model/vision'
import { TextCache } from '../resources/text'
import type { Platform } from '../runtime/types'
import { lateClock, systemClock, type Clock } from '../util/clock'
import { DescriptorBudget, descriptorSlots } from '../util/descriptor-budget'
import { LoadedConversations } from '../runtime/loaded-conversations'
import type { Logger } from '../util/logger'
import { Redactor } from '../util/redact'
import { McpManager, type McpServerStatus } from '../mcp'
import { registerBuiltins } from './builtins'
import { logProblems, notStarted, type NotStarted } from './config-report'
import { Inbound } from './inbound'
import { koishiPlatform } from './platform'
import { Routing, type WakeOptions } from './routing'
import { RuntimeRegistry, type RuntimeWatcher } from './runtime-registry'
import { HistoryStorage } from './storage'
import { ownerBook, reportTrustTools } from './trust'
import type { OwnerBook } from '../contract/authors'
import type { BudgetReport } from '../budgets/report'
import { PluginBudgets } from './plugin-budgets'

declare module 'koishi' {
  interface Context {
    kotodama: KotodamaService
  }
}

export { MigrateRefused } from './storage'
export type { WakeOptions } from './routing'

/** how long after start a missing database service is reported without a message asking for it */
const DATABASE_GRACE_MS = 3000

/** Services kotodama uses when they are there (the plugin and its service declare the same) */
export const OPTIONAL_SERVICES = {
  http: { required: false }, database: { required: false }, vits: { required: false }, chatluna: { required: false }, censor: { required: false },
}

export class KotodamaService extends Service {
  static inject = OPTIONAL_SERVICES
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
  private models: Map<string, ModelHandle>
  private runtimes: RuntimeRegistry
  private routing: Routing
  private inbound: Inbound
  /** failures and cool-downs per model id, for every runtime of this instance (made with the first runtime, after tests set the clock) */
  private health?: ModelHealth
  /** which models return their reasoning, as learned from their servers (SPEC §11) */
  private reasoning: ReasoningModes
  /** the plugin's log, every line masked (SPEC §22): the one every part of the plugin writes to */
  readonly log: Logger
  /** masks every configured secret in logs and in what the model sees */
  readonly redact: Redactor
  /** the configured MCP servers, started with the plugin (SPEC §14) */
  readonly mcp: McpManager
  /** where histories live: files or Koishi's database (docs/storage.md) */
  private storage: HistoryStorage
  /** the bot owner's people (SPEC §22), and the tools only they trigger */
  private owners: OwnerBook
  private ownerTools: ReadonlySet<string>
  /** what the plugin's runtimes spent today, against budgets (SPEC §22) */
  private budgets: PluginBudgets

  constructor(ctx: Context, public config: Config) {
    super(ctx, 'kotodama', true)
    const mcpSecrets = (config.mcp?.servers ?? []).flatMap(s => [...Object.values(s?.env ?? {}), ...Object.values(s?.headers ?? {})])
    this.redact = new Redactor([...(config.models ?? []).map(m => m?.apiKey), ...mcpSecrets, ...partSecrets(config)])
    this.log = this.redact.logger(ctx.logger('kotodama'))
    this.platform = koishiPlatform(ctx, this.log)
    this.checked = checkConfig(config)
    logProblems(this.checked, this.log)
    this.owners = ownerBook(ctx, this.checked.trust, this.log)
    this.ownerTools = new Set(this.checked.trust.tools)
    this.budgets = new PluginBudgets(ctx, config, { budgets: this.checked.budgets, dataDir: this.dataDir(), clock: lateClock(() => this.clock), log: this.log })
    this.reasoning = new ReasoningModes(resolve(this.dataDir(), 'models.json'), this.log)
    this.models = createModels(ctx, this.checked.models, this.reasoning, this.log)
    // The first program otherwise pays ~100 ms to compile the sandbox.
    const warm = this.checked.profiles.some(p => p.codemode.enabled)
    if (warm) this.sandbox.warmUp().catch(e => this.log.warn('codemode sandbox could not warm up: %s', e?.message ?? e))
    this.mcp = new McpManager(this.checked.mcpServers.values(), {
      logger: this.log, clock: lateClock(() => this.clock), addTool: (name, factory) => this.extensions.addTool(name, factory),
    })
    registerBuiltins(this, this.mcp)
    this.runtimes = new RuntimeRegistry(this.log)
    this.routing = new Routing(() => this.profiles, this.log)
    // storage: database waits for the database service; runtimes on it stop when it goes
    this.storage = new HistoryStorage(ctx, {
      config, log: this.log, clock: () => this.clock, descriptors: this.descriptors, gone: () => this.runtimes.stopWhere(r => !!r.options.historyTable),
    })
    this.inbound = new Inbound(ctx, {
      log: this.log, profiles: () => this.profiles, owner: (bot, channel) => this.owner(bot, channel),
      unavailable: (profile, bot) => this.storage.unavailable(this.storageOf(profile, bot)),
      storable: (profile, bot) => this.storageOf(profile, bot) !== 'database' || !!this.storage.table,
      runtime: (profile, bot) => this.runtime(profile, bot), homeOf: (profile, bot) => this.homeOf(profile, bot),
      recordsOf: (profile, bot) => this.storage.recordsOf(profile, bot), runtimes: this.runtimes, now: () => this.clock.now(),
    })
  }

  /** Each MCP server, its state and how many tools it offers. */
  mcpStatus(): McpServerStatus[] {
    return this.mcp.status().map(s => s.error ? { ...s, error: this.redact.text(s.error) } : s)
  }

  get profiles(): ProfileConfig[] {
    return this.checked.profiles
  }

  /** The config's profiles that did not start, each with why (the log's lines: field path and problem). */
  notStarted(): NotStarted[] {
    return notStarted(this.config, this.checked)
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
    return this.routing.owner(bot, channel)
  }

  /** Where (profile, bot) keeps its histories: the config's storage, or where a migration moved it. */
  storageOf(profile: ProfileConfig, bot: string): StorageKind {
    return this.storage.of(profile, bot)
  }

  private dataDir(): string {
    return resolve(this.ctx.root.baseDir ?? process.cwd(), this.config.dataDir)
  }

  /** Today's budgets: each limit, what was spent, who spent most (kotodama.status, the console). */
  budgetReport(): Promise<BudgetReport> {
    return this.budgets.report()
  }

  runtime(profile: ProfileConfig, bot: string): Promise<Runtime> {
    // a restart keeps today's spending: it is read before the first request can be gated
    if (!this.budgets.loaded) return this.budgets.load().then(() => this.runtime(profile, bot))
    const pause = this.storage.pause(profile, bot)
    if (pause) return pause.then(() => this.runtime(profile, bot))
    return this.runtimes.get(profile, bot, () => {
      if (this.storage.unavailable(this.storageOf(profile, bot))) throw new Error('storage is "database", but Koishi has no database service')
      return {
        profile, bot, dataDir: this.dataDir(),
        logger: this.log, platform: this.platform, models: this.models, extensions: this.extensions,
        limits: this.checked.codemode, timezone: this.checked.budgets.timezone,
        random: () => this.random(), clock: this.clock, botName: this.ctx.bots[bot]?.user?.name,
        sandbox: this.sandbox, vision: this.vision, files: this.files, redact: this.redact,
        health: this.health ??= new ModelHealth(this.clock, this.log), descriptors: this.descriptors, loaded: this.loaded,
        historyTable: this.storage.tableOf(profile, bot), records: this.storage.recordsOf(profile, bot), owners: this.owners, ownerTools: this.ownerTools,
        budget: this.budgets.gateFor(profile.id, bot),
      }
    })
  }

  /** Resolves when the messages received so far are stored as facts. */
  received(): Promise<void> {
    return this.inbound.idle()
  }

  /** An explicit wake-up that starts a turn now (SPEC §9). */
  async wake(o: WakeOptions): Promise<void> {
    const channel = normalizeTarget(o.channel)
    const profile = this.routing.wakeProfile(o.bot, channel, o.profile)
    const runtime = await this.runtime(profile, o.bot)
    await runtime.wake(channel, o.reason)
  }

  /**
   * The running runtimes whose bot is still there. A bot can vanish without an event (the
   * sandbox drops a closed page's bot silently): its runtimes are stopped here (docs/console.md).
   */
  async list(): Promise<Runtime[]> {
    const all = await this.runtimes.all()
    const gone = new Set(all.filter(r => !this.ctx.bots[r.bot]).map(r => r.bot))
    if (gone.size) this.runtimes.stopWhere(r => gone.has(r.bot))
    return all.filter(r => !gone.has(r.bot))
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

  /** The parts' tables of (profile, bot) under storage: database, read without starting it (its tasks); undefined on files or without a database. */
  recordsOf(profile: ProfileConfig, bot: string): PartRecords | undefined {
    return this.storage.recordsOf(profile, bot)
  }

  /** The histories of (profile, bot) as its runtime would open them, without starting it; none while its database is missing. */
  storedHistory(profile: ProfileConfig, bot: string): HistorySide | undefined {
    return this.storage.side(profile, bot, this.homeOf(profile, bot))
  }

  /** Calls `fn` when a runtime starts or stops (`key` undefined) or a conversation changes. */
  watch(fn: RuntimeWatcher): () => void {
    return this.runtimes.watch(fn)
  }

  /** Moves the histories of (profile, bot) to `to` (kotodama.migrate, docs/storage.md). */
  migrate(profile: ProfileConfig, bot: string, to: StorageKind): Promise<MigrationResult> {
    return this.storage.migrate(profile, bot, to, this.homeOf(profile, bot), {
      busy: async () => !!(await (await this.runtimes.running(profile, bot))?.status())?.some(c => c.busy),
      stop: () => this.runtimes.take(profile, bot),
    })
  }

  protected start(): void {
    this.inbound.restoreWaits()
    this.mcp.start()
    // a database plugin started with the app may provide its service after this one starts
    this.ctx.setTimeout(() => this.storage.unavailable(this.config.storage), DATABASE_GRACE_MS)
    // other plugins register their tools as they load: what `trust.tools` names is checked once they had the time
    this.ctx.setTimeout(() => reportTrustTools(this.checked.trust, this.extensions, this.checked.mcpServers.keys(), this.log), DATABASE_GRACE_MS)
  }

  /** Resolves when the plugin's stop has finished: Koishi does not wait for it on dispose (the demo does). */
  stopped(): Promise<void> {
    return this.ending ?? Promise.resolve()
  }

  private ending?: Promise<void>

  protected stop(): Promise<void> {
    return this.ending = this.end()
  }

  private async end(): Promise<void> {
    // messages already received are stored before their runtimes stop
    await this.inbound.idle()
    await this.runtimes.stop()
    // the runtimes' last requests are charged: what is buffered is written
    await Promise.all([this.sandbox.shutdown(), this.mcp.stop(), this.reasoning.idle(), this.budgets.stop()])
    this.vision.clear()
    this.files.clear()
  }
}
