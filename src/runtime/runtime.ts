// One runtime per (profile, bot): its home, resource center, parts, conversations and send path
// (SPEC §2). It composes; each job is a file of its own.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Fact } from '../history/entries'
import { historySide, type HistorySide } from '../history/sides'
import { ModelCalls } from '../model/calls'
import { PartSet } from '../part/part-set'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { ResourceCenter } from '../resources/center'
import { builtinSchemes } from '../resources/schemes'
import { ArtifactStore } from '../resources/schemes/artifact-store'
import { AssetStore } from '../resources/schemes/asset-store'
import { DEFAULT_ATTACHMENT } from '../config/defaults'
import type { RuntimeView } from '../tools/types'
import { UsageBook } from '../usage/book'
import { Redactor } from '../util/redact'
import { runtimeHome, type RuntimeOptions } from './runtime-options'
import { ChannelMemory } from './channel-memory'
import type { Conversation } from './conversation'
import { makeConversation, onceAWarning, type ConversationSide } from './conversation-wiring'
import { Conversations, type ConversationStatus } from './conversations'
import { WaitIndex } from './durable-waits'
import { ExtensionSync } from './extension-sync'
import { acquireHome } from './home-lock'
import { judgeCall } from './judge-call'
import { LiveFacts } from './live-facts'
import { PulledFacts } from './pulled-facts'
import { RuntimePrompt } from './runtime-prompt'
import { ImageLoader } from './request/image-loader'
import { registeredTools } from './tool-catalog'
import { PARTS } from './part-list'
import { outboundOf } from '../part/outbound-of'
import { WakeRequests } from './wake-requests'
import type { TurnChat } from '../contract/tool'
import type { Place } from './prompt/chat-place'
import { conversationKey } from '../claims/channel-key'

export { runtimeHome, type RuntimeOptions } from './runtime-options'

export class Runtime {
  readonly home: string
  readonly resources: ResourceCenter
  readonly assets: AssetStore
  readonly artifacts: ArtifactStore
  /** the capabilities this runtime is made of (part-list.ts), in prompt order */
  readonly parts: readonly RuntimePart[]
  /** What tools, schemes and other plugins see of this runtime. */
  readonly view: RuntimeView
  /** requests, tokens and errors per model, since start and today */
  readonly usage: UsageBook
  /** the one way this runtime calls a model: steps, the judge, vision, embeddings, each counted */
  readonly calls: ModelCalls
  /** the conversations with a pending wait, so a restart finds them without a message (SPEC §15) */
  readonly waits: WaitIndex
  readonly channels = new ChannelMemory()
  /** messages said while the bot was away, stored without waking (SPEC §19) */
  readonly pulled = new PulledFacts(this, (key, fn) => this.using(key, fn), () => this.stopped)
  /** claimed messages as they arrive */
  private live = new LiveFacts(this, {
    using: (key, fn) => this.using(key, fn), stopped: () => this.stopped, wakeOf: fact => this.extensions.engine().judge(fact),
  })
  /** turns without a message: wake-ups, parts' requests, restored waits */
  private wakes = new WakeRequests(this, { using: (key, fn) => this.using(key, fn), stopped: () => this.stopped })
  private conversations: Conversations
  private partSet: PartSet
  private extensions: ExtensionSync
  private stopped = false
  private releaseHome?: () => void
  /** told which conversation changed (new entries, a turn ended, a reset) */
  private watchers = new Set<(key: string) => void>()
  private restoring?: Promise<void>
  /** other plugins' and MCP servers' tools, shared by the conversations; searched when many (SPEC §18) */
  private registered: ReturnType<typeof registeredTools>
  private prompt: RuntimePrompt

  constructor(readonly options: RuntimeOptions) {
    const o = options
    this.home = runtimeHome(o.dataDir, o.profile.id, o.bot)
    this.resources = new ResourceCenter({ files: o.files })
    const fetch = o.platform.fetch
    const allowPrivate = o.profile.http.allowPrivate
    this.assets = new AssetStore(join(this.home, 'assets'), fetch && ((url, f) => fetch.call(o.platform, url, { ...f, allowPrivate })))
    this.assets.logger = o.logger
    const media = o.profile.attachment
    this.assets.bound({ maxBytes: media?.maxAssetBytes ?? DEFAULT_ATTACHMENT.maxAssetBytes!, keepDays: media?.keepDays ?? DEFAULT_ATTACHMENT.keepDays! })
    this.artifacts = new ArtifactStore(join(this.home, 'artifacts'))
    this.waits = new WaitIndex(this.home, o.logger)
    const models = o.models
    this.usage = new UsageBook(join(this.home, 'usage'), o.clock, o.logger, id => models.get(id)?.config.price, o.timezone)
    this.calls = new ModelCalls({ models, usage: this.usage, clock: o.clock, logger: o.logger, health: o.health, ...o.budget ? { gate: o.budget } : {} })
    this.view = Object.freeze({
      profile: o.profile, bot: o.bot, home: this.home, logger: o.logger, limits: o.limits, timezone: o.timezone ?? '',
      resources: this.resources, artifacts: this.artifacts, assets: this.assets,
      model: (id: string) => this.calls.viewHandle(id),
    })
    this.registered = registeredTools(this.view, o.extensions)
    this.extensions = new ExtensionSync(o.extensions, this.view, this.resources, id => this.channels.sentByBot(id))
    this.partSet = new PartSet(PARTS, {
      view: this.view, texts: this.resources.files, clock: o.clock, calls: this.calls, platform: o.platform, botName: o.botName, records: o.records,
      ...o.redact ? { redact: o.redact } : {},
      history: l => this.history(l), muted: ch => this.muted(ch), conversationOf: ch => this.conversationKey(ch),
      append: (key, entries) => this.using(key, conv => conv.append(entries)),
      receive: fact => this.live.receive(fact),
      request: (ch, req) => this.wakes.request(ch, req),
    })
    this.parts = this.partSet.all
    this.prompt = new RuntimePrompt({
      profile: o.profile, bot: o.bot, botName: o.botName, resources: this.resources, parts: this.parts,
      toolSources: () => this.registered().sources,
    })
    const side = this.conversationSide(outboundOf(PARTS, this.parts))
    this.conversations = new Conversations({
      make: key => makeConversation(side, key), logger: o.logger, loaded: o.loaded, unloaded: key => this.partSet.unloaded(key),
    })
  }

  get profile() { return this.options.profile }
  get bot() { return this.options.bot }
  get logger() { return this.options.logger }

  /** The part `plugin` made for this runtime (part-list.ts); undefined when its profile turns it off. */
  part<P>(plugin: PartPlugin<any, P>): P | undefined {
    return this.partSet.get(plugin)
  }

  private using<T>(key: string, fn: (conv: Conversation) => T | Promise<T>): Promise<T> {
    return this.conversations.using(key, fn)
  }

  /** Whether the mind may not speak in `channel` now: a part says so (SPEC §19: a ban, the owner's pause). */
  private muted(channel: string): boolean {
    return this.parts.some(p => p.muted?.(channel))
  }

  private conversationSide(elements: ConversationSide['elements']): ConversationSide {
    const o = this.options
    const judge = o.profile.wake.judge
    return {
      view: this.view, clock: o.clock, platform: o.platform, random: () => o.random(), redact: o.redact ?? new Redactor([]),
      models: o.models, calls: this.calls, extensions: o.extensions, limits: o.limits, sandbox: o.sandbox, vision: o.vision,
      resources: this.resources, artifacts: this.artifacts, assets: this.assets, images: new ImageLoader(this.resources),
      channels: this.channels, usage: this.usage, waits: this.waits, parts: this.parts, muted: ch => this.muted(ch),
      history: () => this.history(), registered: this.registered, syncSchemes: () => this.extensions.schemes(),
      systemPrompt: (key, chat, place) => this.systemPrompt(key, chat, place), elements,
      ...(judge ? { judge: judgeCall({ id: judge, calls: this.calls, persona: o.profile.persona, clock: o.clock }) } : {}),
      changed: key => {
        this.watchers.forEach(w => w(key))
        // a turn that ended may leave this or another conversation idle and over the budget
        o.loaded?.recheck()
      },
      logged: onceAWarning(o.logger, o.profile.id),
      ...o.owners ? { owners: o.owners } : {}, ...o.ownerTools ? { ownerTools: o.ownerTools } : {},
    }
  }

  async start(): Promise<void> {
    this.releaseHome = await acquireHome(this.home)
    if (this.stopped) return this.releaseHome()
    try {
      await Promise.all(['local', 'artifacts', 'assets', 'conversations'].map(d => mkdir(join(this.home, d), { recursive: true })))
      const own = builtinSchemes({ assets: this.assets, artifacts: this.artifacts })
      for (const handler of [...own, ...this.parts.flatMap(p => p.schemes?.() ?? [])]) this.resources.register(handler)
      this.extensions.schemes()
      await this.usage.load()
      await this.waits.load()
      // parts read their files only now: a reload's old instance has stopped writing them
      await this.partSet.start()
    } catch (e) {
      // no part of a runtime that did not start keeps a timer or a file
      await this.partSet.stop()
      this.releaseHome()
      throw e
    }
    this.restoring = this.wakes.restore()
  }

  /** Where this runtime's conversations keep their history. */
  history(logger = this.options.logger): HistorySide {
    const o = this.options
    return historySide({ home: this.home, profile: o.profile.id, bot: o.bot, logger, clock: o.clock, budget: o.descriptors, table: o.historyTable })
  }

  conversationKey(channel: string): string {
    return conversationKey(this.profile.mode, channel)
  }

  conversation(key: string): Promise<Conversation> {
    return this.conversations.get(key)
  }

  /**
   * A claimed incoming message: stored as a fact, and a turn starts when the wake engine says so.
   * false when this runtime stopped before the fact was stored (a migration, a bot that went away):
   * the caller hands it to the next runtime.
   */
  receive(fact: Fact): Promise<boolean> {
    return this.live.receive(fact)
  }

  /** An explicit wake-up (ctx.kotodama.wake): a turn starts now, or right after the running one. */
  async wake(channel: string, reason: string): Promise<void> {
    await this.wakes.request(channel, { reason: `wake:${reason}`, note: `[wake: ${reason}]` })
  }

  /** The system prompt as conversation `key` sees it; without one, as any group does. */
  systemPrompt(key?: string, turnChat?: TurnChat, place?: Place): string {
    return this.prompt.seenBy(key, turnChat, place)
  }

  /** Calls `fn` with a conversation's key whenever it changed; returns the unsubscribe. */
  watch(fn: (key: string) => void): () => void {
    this.watchers.add(fn)
    return () => this.watchers.delete(fn)
  }

  /** The conversations loaded so far. */
  loaded(): Promise<Conversation[]> {
    return this.conversations.loaded()
  }

  async status(): Promise<ConversationStatus[]> {
    return (await this.conversations.status()).map(s => ({ ...s, ...this.partSet.notes(s.key) }))
  }

  /** Resolves when every conversation's history written so far is on disk, the parts are done with it, and waits.json says the same. */
  async written(): Promise<void> {
    await Promise.all([this.conversations.written(), this.partSet.written()])
    // a wait armed or ended by what was just written is in waits.json too
    await this.waits.idle()
  }

  async reset(channel: string): Promise<string | undefined> {
    const key = this.conversationKey(channel)
    return this.conversations.using(key, async conv => {
      const aside = await conv.reset()
      await this.partSet.reset(key)
      return aside
    })
  }

  async stop(): Promise<void> {
    this.stopped = true
    // conversations being restored are loaded before the others stop
    await this.restoring
    // parts first: their ports refuse from now on, so an idle wake or a transcript loads no conversation after this
    await this.partSet.stop()
    await this.conversations.stop()
    await this.usage.stop()
    await this.waits.stop()
    this.extensions.dispose()
    this.resources.dispose()
    this.releaseHome?.()
  }
}
