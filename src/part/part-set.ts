// The parts of one runtime (docs/architecture.md "Parts"): made from the list in order with a scope
// each, started once the runtime holds its home, stopped before its conversations. The scope's
// ports refuse from the moment stop begins, so nothing a part does after it reaches a conversation.
import type { Entry, Fact } from '../history/entries'
import type { HistorySide } from '../history/sides'
import type { CallPort } from '../model/calls'
import type { TextCache } from '../resources/text'
import type { RuntimeView } from '../tools/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { PartPlatform } from './platform'
import { PartStopped, type PartPlugin, type PartScope, type PartTurnRequest } from './plugin'
import type { PartRecords } from './records'
import type { ConversationNotes, RuntimePart } from './runtime-part'
import { sectionOf } from './section-config'
import { Redactor } from '../util/redact'

const NO_SECRETS = new Redactor([])

/** What the runtime lends its parts; the set wraps the ports so they refuse after stop. */
export interface PartSetDeps {
  view: RuntimeView
  clock: Clock
  calls: CallPort
  platform: PartPlatform
  texts: TextCache
  botName?: string
  records?: PartRecords
  redact?: Redactor
  history(logger?: Logger): HistorySide
  append(conversation: string, entries: Entry[]): Promise<void>
  receive(fact: Fact): Promise<boolean>
  request(channel: string, req: PartTurnRequest): Promise<void>
  muted(channel: string): boolean
  conversationOf(channel: string): string
}

export class PartSet {
  /** the parts made, in list order */
  readonly all: readonly RuntimePart[]
  private made = new Map<PartPlugin<any, any>, RuntimePart>()
  private started: RuntimePart[] = []
  private stopping = false
  private abort = new AbortController()

  constructor(plugins: readonly PartPlugin<any, any>[], private d: PartSetDeps) {
    const all: RuntimePart[] = []
    for (const plugin of plugins) {
      const part = plugin.create(this.scopeOf(plugin))
      if (!part) continue
      this.made.set(plugin, part)
      all.push(part)
    }
    this.all = all
  }

  /** The part `plugin` made for this runtime; undefined when the profile turns it off. */
  get<P>(plugin: PartPlugin<any, P>): P | undefined {
    return this.made.get(plugin) as P | undefined
  }

  get stopped(): boolean {
    return this.stopping
  }

  /** Starts each part in order; when one throws, those already started are stopped and the error goes on. */
  async start(): Promise<void> {
    for (const part of this.all) {
      if (this.stopping) return
      try {
        await part.start?.()
      } catch (e) {
        await this.stop()
        throw e
      }
      this.started.push(part)
    }
  }

  /** Refuses the ports, then stops each part in turn; one that fails is logged and the next still stops. */
  async stop(): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    this.abort.abort()
    const logger = this.d.view.logger
    for (const p of this.all) {
      await Promise.resolve().then(() => p.stop?.()).catch((e: any) => {
        logger.warn('profile %s: %s did not stop cleanly: %s', this.d.view.profile.id, p.name, e?.message ?? e)
      })
    }
  }

  /** A conversation was unloaded (the loaded budget, a reset): each part frees what it keeps for it. */
  unloaded(conversation: string): void {
    for (const p of this.all) {
      try {
        p.unloaded?.(conversation)
      } catch (e: any) {
        this.d.view.logger.warn('profile %s: %s could not free conversation %s: %s', this.d.view.profile.id, p.name, conversation, e?.message ?? e)
      }
    }
  }

  /** A conversation's history was set aside (kotodama.reset). */
  async reset(conversation: string): Promise<void> {
    for (const p of this.all) await p.reset?.(conversation)
    this.unloaded(conversation)
  }

  /** What the parts tell of conversation `key` (status, the console). */
  notes(conversation: string): ConversationNotes {
    const out: ConversationNotes = {}
    for (const p of this.all) Object.assign(out, p.status?.(conversation))
    return out
  }

  /** Resolves when every part is done with what it was handed so far. */
  async written(): Promise<void> {
    await Promise.all(this.all.map(p => p.written?.()))
  }

  private scopeOf<C>(plugin: PartPlugin<C, any>): PartScope<C> {
    const d = this.d
    const refuse = (what: string) => {
      if (this.stopping) throw new PartStopped(what)
    }
    return {
      config: sectionOf(plugin.section, d.view.profile),
      view: d.view, clock: d.clock, logger: d.view.logger, calls: d.calls, platform: d.platform, texts: d.texts, redact: d.redact ?? NO_SECRETS,
      ...d.botName !== undefined ? { botName: d.botName } : {},
      ...d.records ? { records: d.records } : {},
      signal: this.abort.signal,
      history: logger => d.history(logger),
      append: async (conversation, entries) => {
        refuse(`${plugin.name}'s append to ${conversation}`)
        await d.append(conversation, entries)
      },
      receive: async fact => {
        refuse(`${plugin.name}'s fact in ${fact.channel}`)
        return d.receive(fact)
      },
      request: async (channel, req) => {
        refuse(`${plugin.name}'s turn request in ${channel}`)
        await d.request(channel, req)
      },
      muted: channel => d.muted(channel),
      conversationOf: channel => d.conversationOf(channel),
      part: other => this.get(other),
      parts: () => this.all,
    }
  }
}
