// One runtime per (profile, bot): its home, resource center, conversations and send path (SPEC §2).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { DEFAULT_MEMORY } from '../config/defaults'
import type { CodemodeLimits, ProfileConfig } from '../config/types'
import { Memory } from '../memory/memory'
import { Recall } from '../recall'
import { ModelCalls } from '../model/calls'
import type { ModelHealth } from '../model/failover'
import type { ModelHandle } from '../model/provider'
import type { VisionCache } from '../model/vision'
import { ResourceCenter } from '../resources/center'
import { builtinSchemes } from '../resources/schemes'
import { ArtifactStore } from '../resources/schemes/artifact-store'
import { AssetStore } from '../resources/schemes/asset-store'
import type { TextCache } from '../resources/text'
import type { ProgramRunner } from '../tools/codemode'
import type { RuntimeView } from '../tools/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { Redactor } from '../util/redact'
import { safeName } from '../util/safe-name'
import { Conversation } from './conversation'
import type { Extensions } from './extensions'
import { historySide, type HistorySide } from '../history/sides'
import type { HistoryTable } from '../history/table'
import { acquireHome } from './home-lock'
import { restoreWaits, WaitIndex } from './durable-waits'
import { shortenFact } from './long-facts'
import { systemPrompt } from './prompt/system-prompt'
import { ImageLoader } from './request/image-loader'
import { registeredTools, toolCatalog } from './tool-catalog'
import { createToolHost, type HostSide } from './tool-host'
import type { Fact } from '../history/entries'
import type { Platform } from './types'
import { standardWakeEngine } from '../attention/standard-wake'
import { askJudge, type Verdict } from '../attention/judge'
import type { WakeEngine } from '../attention/wake-engine'
import { UsageBook } from '../usage/book'
import type { DescriptorBudget } from '../util/descriptor-budget'
import type { LoadedConversations, Resident } from './loaded-conversations'

export interface RuntimeOptions {
  profile: ProfileConfig
  bot: string
  dataDir: string
  logger: Logger
  platform: Platform
  models: Map<string, ModelHandle>
  extensions: Extensions
  limits: CodemodeLimits
  random(): number
  clock: Clock
  botName?: string
  /** shared by the plugin's runtimes and released with it */
  sandbox: ProgramRunner
  vision: VisionCache
  files?: TextCache
  /** masks configured secrets in what the model sees */
  redact?: Redactor
  /** which models are skipped after failures; shared by the plugin's runtimes */
  health?: ModelHealth
  /** caps the history files open at once across the plugin's runtimes */
  descriptors?: DescriptorBudget
  /** caps the conversations kept in memory across the plugin's runtimes */
  loaded?: LoadedConversations
  /** storage: database — the table of the histories; without one, JSONL files in the home (docs/storage.md) */
  historyTable?: HistoryTable
}

const NO_SECRETS = new Redactor([])

export function runtimeHome(dataDir: string, profileId: string, bot: string): string {
  const i = bot.indexOf(':')
  return join(dataDir, safeName(profileId), safeName(bot.slice(0, i)), safeName(bot.slice(i + 1)))
}

export class Runtime {
  readonly home: string
  readonly resources: ResourceCenter
  readonly assets: AssetStore
  readonly artifacts: ArtifactStore
  /** local:// as the mind's memory: its writer, quotas and the memory section (SPEC §13) */
  readonly memory: Memory
  /** what was said, searched: the search tool and history:// (SPEC §17) */
  readonly recall: Recall
  /** What tools, schemes and other plugins see of this runtime. */
  readonly view: RuntimeView
  private conversations = new Map<string, Promise<Conversation>>()
  private residents = new Map<string, Resident>()
  /** unloaded conversations still writing their history, by key */
  private unloadingKeys = new Map<string, Promise<unknown>>()
  /** messages and wake-ups on their way into a conversation (it must not be unloaded under them) */
  private arriving = new Map<string, number>()
  private sent = new LRUCache<string, true>({ max: 5000 })
  /** where a channel is on the platform (its guild, its own id), from the latest fact there */
  private places = new LRUCache<string, { guildId?: string; rawChannel?: string }>({ max: 5000 })
  private images: ImageLoader
  private schemeVersion = -1
  private schemeDisposers: (() => void)[] = []
  private wakeEngine?: { version: number; engine: WakeEngine }
  private stopped = false
  private releaseHome?: () => void
  /** requests, tokens and errors per model, since start and today */
  readonly usage: UsageBook
  /** every model call of this runtime, counted in `usage` (steps, judge, vision, embeddings) */
  readonly calls: ModelCalls
  /** told which conversation changed (new entries, a turn ended, a reset) */
  private watchers = new Set<(key: string) => void>()
  /** the conversations with a pending wait, so a restart finds them without a message (SPEC §15) */
  readonly waits: WaitIndex
  private restoring?: Promise<void>
  /** other plugins' and MCP servers' tools, shared by the conversations; searched when many (SPEC §18) */
  private registered: ReturnType<typeof registeredTools>

  constructor(readonly options: RuntimeOptions) {
    this.home = runtimeHome(options.dataDir, options.profile.id, options.bot)
    this.resources = new ResourceCenter({ files: options.files })
    const fetch = options.platform.fetch
    this.assets = new AssetStore(join(this.home, 'assets'), fetch && ((url, o) => fetch.call(options.platform, url, { ...o, allowPrivate: options.profile.http.allowPrivate })))
    this.artifacts = new ArtifactStore(join(this.home, 'artifacts'))
    this.images = new ImageLoader(this.resources)
    this.waits = new WaitIndex(this.home, options.logger)
    this.memory = new Memory({ root: join(this.home, 'local'), config: options.profile.memory ?? DEFAULT_MEMORY, texts: this.resources.files, logger: options.logger })
    const models = options.models
    this.usage = new UsageBook(join(this.home, 'usage'), options.clock, options.logger, id => models.get(id)?.config.price)
    this.calls = new ModelCalls({ models, usage: this.usage, clock: options.clock, logger: options.logger, health: options.health })
    this.view = Object.freeze({
      profile: options.profile, bot: options.bot, home: this.home, logger: options.logger, limits: options.limits,
      resources: this.resources, artifacts: this.artifacts, assets: this.assets,
      model: (id: string) => this.calls.handle(id),
    })
    this.registered = registeredTools(this.view, options.extensions)
    this.recall = new Recall(this.view, { history: logger => this.history(logger), clock: options.clock, botName: options.botName })
  }

  get profile() { return this.options.profile }
  get bot() { return this.options.bot }
  get logger() { return this.options.logger }

  async start(): Promise<void> {
    this.releaseHome = await acquireHome(this.home)
    if (this.stopped) return this.releaseHome()
    try {
      await Promise.all(['local', 'artifacts', 'assets', 'conversations'].map(d => mkdir(join(this.home, d), { recursive: true })))
      const localWrite = this.memory.config.enabled ? this.memory.write.bind(this.memory) : undefined
      for (const handler of builtinSchemes({ assets: this.assets, artifacts: this.artifacts, localRoot: join(this.home, 'local'), localWrite })) this.resources.register(handler)
      if (this.recall.enabled) this.resources.register(this.recall.scheme())
      this.syncSchemes()
      await this.usage.load()
      await this.waits.load()
    } catch (e) {
      this.releaseHome()
      throw e
    }
    this.restoring = this.restoreWaits()
  }

  /** Loads the conversations the waits index names: their waits re-arm without a message (SPEC §15). */
  private restoreWaits(): Promise<void> {
    return restoreWaits(this.waits, {
      who: `profile ${this.profile.id} on ${this.bot}`, logger: this.logger, stopped: () => this.stopped,
      owns: key => this.conversationKey(key) === key,
      load: key => this.using(key, conv => {
        if (!conv.target && this.profile.mode === 'channel') conv.target = { bot: this.bot, channel: key, ...this.placeOf(this.bot, key) }
      }),
    })
  }

  /** Instantiates the schemes other plugins registered; reruns when the registry changed. */
  private syncSchemes(): void {
    const ext = this.options.extensions
    if (this.schemeVersion === ext.version) return
    this.schemeVersion = ext.version
    this.schemeDisposers.splice(0).forEach(d => d())
    for (const factory of [...ext.schemes.values(), ...ext.anonymousSchemes]) {
      try {
        const handler = factory(this.view)
        if (handler) this.schemeDisposers.push(this.resources.register(handler))
      } catch (e: any) {
        this.logger.error('profile %s: a scheme handler could not be added: %s', this.profile.id, e?.message ?? e)
      }
    }
  }

  private engine(): WakeEngine {
    const ext = this.options.extensions
    if (this.wakeEngine?.version === ext.version) return this.wakeEngine.engine
    const name = this.profile.wake.engine
    const factory = ext.wakeEngines.get(name) ?? standardWakeEngine
    // the built-in standard engine is always there, also while the plugin is being disposed
    if (!ext.wakeEngines.has(name) && name !== 'standard') this.logger.warn('profile %s: wake engine "%s" is not registered; using standard', this.profile.id, name)
    const engine = factory({ bot: this.bot, config: this.profile.wake, sentByBot: id => this.sent.has(id) })
    this.wakeEngine = { version: ext.version, engine }
    return engine
  }

  /** Where this runtime's conversations keep their history. */
  history(logger = this.options.logger): HistorySide {
    const o = this.options
    return historySide({ home: this.home, profile: o.profile.id, bot: o.bot, logger, clock: o.clock, budget: o.descriptors, table: o.historyTable })
  }

  conversationKey(channel: string): string {
    return this.profile.mode === 'cross' ? 'cross' : channel
  }

  conversation(key: string): Promise<Conversation> {
    let p = this.conversations.get(key)
    if (!p) {
      const o = this.options
      const side: HostSide = {
        profile: o.profile, bot: o.bot, clock: o.clock, platform: o.platform, random: () => o.random(),
        media: (url, signal) => this.resources.bytes(url, signal),
        placeOf: (bot, channel) => this.placeOf(bot, channel),
        rememberSent: ids => { for (const id of ids ?? []) this.sent.set(id, true) },
        sendFailed: () => this.usage.recordFailedSend(),
      }
      const conv = new Conversation({
        key, profile: o.profile, logger: o.logger, clock: o.clock, redact: o.redact ?? NO_SECRETS,
        store: this.history().open(key),
        stores: { artifacts: this.artifacts, assets: this.assets },
        model: () => o.models.get(o.profile.model),
        failover: this.calls,
        system: () => this.systemPrompt(),
        hostFor: c => createToolHost(side, c),
        toolsFor: host => {
          const tools = toolCatalog({ view: this.view, extensions: o.extensions, limits: o.limits, vision: o.vision, calls: this.calls, sandbox: o.sandbox, registered: this.registered, recall: this.recall }, host)
          return () => {
            this.syncSchemes()
            return tools()
          }
        },
        loadImage: url => this.images.load(url),
        ...(o.profile.wake.judge ? { judge: ({ reason, lines }: { reason: string; lines: string[] }) => this.askJudge(reason, lines) } : {}),
        beforeTurn: () => this.memory.prepare(),
        indexed: entries => this.recall.add(key, entries),
        waits: this.waits.portFor(key),
        changed: () => {
          this.watchers.forEach(w => w(key))
          // a turn that ended may leave this or another conversation idle and over the budget
          this.options.loaded?.recheck()
        },
      })
      // an unloaded conversation of this key writes its last entries before they are read again
      const previous = this.unloadingKeys.get(key) ?? Promise.resolve()
      p = previous.then(() => conv.load()).then(() => conv)
      p.catch(() => this.conversations.delete(key))
      this.conversations.set(key, p)
      const loaded = p
      this.residents.set(key, {
        idle: () => !this.arriving.get(key) && conv.idle,
        unload: () => {
          if (this.conversations.get(key) !== loaded) return
          this.conversations.delete(key)
          this.residents.delete(key)
          const done = conv.stop().catch(e => this.logger.warn('conversation %s could not be unloaded cleanly: %s', key, e?.message ?? e))
          this.unloadingKeys.set(key, done)
          done.finally(() => { if (this.unloadingKeys.get(key) === done) this.unloadingKeys.delete(key) })
        },
      })
    }
    const resident = this.residents.get(key)
    if (resident) this.options.loaded?.touch(resident)
    return p
  }

  /** Runs `fn` on a conversation that is not unloaded while `fn` runs. */
  private async using<T>(key: string, fn: (conv: Conversation) => T | Promise<T>): Promise<T> {
    this.arriving.set(key, (this.arriving.get(key) ?? 0) + 1)
    try {
      return await fn(await this.conversation(key))
    } finally {
      const n = this.arriving.get(key)! - 1
      if (n) this.arriving.set(key, n)
      else {
        this.arriving.delete(key)
        this.options.loaded?.recheck()
      }
    }
  }

  /**
   * A claimed incoming message: stored as a fact, and a turn starts when the wake engine says so.
   * false when this runtime stopped before the fact was stored (a migration, a bot that went away):
   * the caller hands it to the next runtime.
   */
  async receive(fact: Fact): Promise<boolean> {
    if (this.stopped) return false
    if (fact.guildId || fact.rawChannel) this.places.set(`${fact.bot}\u0000${fact.channel}`, { ...(fact.guildId ? { guildId: fact.guildId } : {}), ...(fact.rawChannel ? { rawChannel: fact.rawChannel } : {}) })
    const wake = this.engine().judge(fact)
    return this.using(this.conversationKey(fact.channel), async conv => {
      let shown = fact
      try {
        shown = await shortenFact(fact, this.artifacts)
      } catch (e: any) {
        this.logger.warn('could not archive a long message: %s', e?.message ?? e)
      }
      if (this.stopped) return false
      return conv.receive(this.options.redact ? this.options.redact.value(shown) : shown, wake)
    })
  }

  /** An explicit wake-up (ctx.kotodama.wake): a turn starts now, or right after the running one. */
  async wake(channel: string, reason: string): Promise<void> {
    await this.using(this.conversationKey(channel), conv => {
      if (!conv.target && this.profile.mode === 'channel') conv.target = { bot: this.bot, channel, ...this.placeOf(this.bot, channel) }
      conv.request({ reason: `wake:${reason}`, note: `[wake: ${reason}]` })
    })
  }

  /** wake.judge's verdict on a wake (SPEC §15); its tokens count like a step's */
  private askJudge(reason: string, lines: string[]): Promise<Verdict> {
    const now = () => this.options.clock.monotonic()
    return askJudge({ calls: this.calls, model: this.profile.wake.judge!, persona: this.profile.persona, lines, reason, now })
  }

  placeOf(bot: string, channel: string): { guildId?: string; rawChannel?: string } {
    return this.places.get(`${bot}\u0000${channel}`) ?? {}
  }

  systemPrompt(): string {
    const p = this.profile
    return systemPrompt({
      persona: p.persona, mode: p.mode, bot: this.bot, botName: this.options.botName,
      schemes: this.resources.schemes(), codemode: p.codemode.enabled, imageInput: p.attachment.imageInput,
      readDirect: !p.codemode.enabled || p.codemode.direct.includes('read'),
      visionModel: !!p.attachment.visionModel,
      memory: this.memory.config.enabled ? this.memory.section() : undefined, toolSources: this.registered().sources,
      recall: this.recall.enabled,
    })
  }

  /** Calls `fn` with a conversation's key whenever it changed; returns the unsubscribe. */
  watch(fn: (key: string) => void): () => void {
    this.watchers.add(fn)
    return () => this.watchers.delete(fn)
  }

  /** The conversations loaded so far. */
  async loaded(): Promise<Conversation[]> {
    return (await Promise.all([...this.conversations.values()].map(p => p.catch((): undefined => undefined)))).filter(Boolean)
  }

  async status() {
    const out: { key: string; busy: boolean; entries: number; wait?: { seconds?: number; messages?: number; armedAt: number; factsSeen: number } }[] = []
    for (const p of this.conversations.values()) {
      const c = await p.catch((): undefined => undefined)
      if (!c) continue
      out.push({
        key: c.key, busy: c.busy, entries: c.entries.length,
        ...(c.wait ? { wait: { ...c.wait.declaration, armedAt: c.wait.armedAt, factsSeen: c.wait.factsSeen } } : {}),
      })
    }
    return out
  }

  /** Resolves when every conversation's history written so far is on disk. */
  async written(): Promise<void> {
    const convs = await Promise.all([...this.conversations.values()].map(p => p.catch((): undefined => undefined)))
    await Promise.all([...convs.map(c => c?.written()), ...this.unloadingKeys.values()])
  }

  async reset(channel: string): Promise<string | undefined> {
    const key = this.conversationKey(channel)
    return this.using(key, async conv => { const aside = await conv.reset(); await this.recall.reset(key); return aside })
  }

  async stop(): Promise<void> {
    this.stopped = true
    // conversations being restored are loaded before the others stop
    await this.restoring
    for (const r of this.residents.values()) this.options.loaded?.forget(r)
    const convs = await Promise.all([...this.conversations.values()].map(p => p.catch((): undefined => undefined)))
    await Promise.all([...convs.map(c => c?.stop()), ...this.unloadingKeys.values()])
    await this.usage.stop()
    await this.waits.stop()
    await this.memory.idle()
    await this.recall.stop()
    this.schemeDisposers.splice(0).forEach(d => d())
    this.resources.dispose()
    this.releaseHome?.()
  }
}
