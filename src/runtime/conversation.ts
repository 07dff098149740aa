// One conversation: its history, its inbox while a turn runs, its pending wait, and the rule
// that only one turn runs at a time (SPEC §4.6).
import type { ModelMessage } from 'ai'
import type { ProfileConfig } from '../config/types'
import type { ModelHandle } from '../model/provider'
import type { SendTarget, Tool, ToolHost, TurnState } from '../tools/types'
import { SerialQueue } from '../util/serial-queue'
import { toModelMessages, windowEntries } from './request/build-messages'
import type { HistoryStore } from './history-store'
import type { Entry, Fact, Logger } from './types'
import { WaitWindow, wakeNote } from './wait-window'
import { runTurn } from './turn'
import { h } from 'koishi'
import type { MediaStores } from '../exit/store-media'
import { project, type LoadedImage } from './request/projection'

export interface TurnRequest {
  reason: string
  /** A note the mind reads at the start of the turn (why it woke up). */
  note?: string
}

export interface ConversationDeps {
  key: string
  profile: ProfileConfig
  bot: string
  logger: Logger
  store: HistoryStore
  model(): ModelHandle | undefined
  system(): string
  tools(conv: Conversation): Map<string, Tool>
  host(conv: Conversation): ToolHost
  setTimer(fn: () => void, ms: number): () => void
  now(): number
  /** where the unified exit stores media and archives */
  stores: MediaStores
  /** image bytes for projection */
  loadImage(url: string): Promise<LoadedImage>
}

export interface ModelRequest {
  messages: ModelMessage[]
  shownOnce: string[]
}

const TRIMMED_NOTE = '[earlier history is outside your context window]'

export class Conversation {
  readonly sends = new SerialQueue()
  entries: Entry[] = []
  turnCounter = 0
  /** The channel of channel mode; in cross mode the channel of the latest fact. */
  lastTarget?: SendTarget
  wait?: WaitWindow
  currentTurn?: TurnState
  private inbox: Entry[] = []
  /** keys of `once` attachments already shown */
  private consumed = new Set<string>()
  /** older entries were dropped from memory (they are still on disk) */
  private forgotten = false
  private running?: Promise<void>
  private queued?: TurnRequest
  private abort = new AbortController()
  private stopped = false

  constructor(readonly deps: ConversationDeps) {}

  get key() { return this.deps.key }
  get profile() { return this.deps.profile }
  get cross() { return this.deps.profile.mode === 'cross' }
  get busy() { return !!this.running }
  get signal() { return this.abort.signal }

  async load(): Promise<void> {
    const { entries, more } = await this.deps.store.loadTail(this.memoryKeep())
    this.entries = entries
    this.forgotten = more
    for (const e of this.entries) {
      if ((e.type === 'turn' || e.type === 'step') && e.turn > this.turnCounter) this.turnCounter = e.turn
      if (e.type === 'fact') this.lastTarget = targetOf(e.fact)
      if (e.type === 'shown') e.ids.forEach(id => this.consumed.add(id))
    }
    this.forgetOldEntries()
  }

  /** Stores a fact; a turn in progress sees it at its next step. */
  receive(fact: Fact, wake?: string): void {
    if (this.stopped) return
    this.lastTarget = targetOf(fact)
    const entries: Entry[] = [{ type: 'fact', at: fact.at, fact, ...(wake ? { wake } : {}) }]
    const images = inboundImages(fact.content)
    if (images.length) {
      // A fact is first seen by the next turn (or the running one, at its next step).
      const turn = this.currentTurn?.number ?? this.turnCounter + 1
      entries.push({ type: 'attachments', at: fact.at, turn, id: `fact-${fact.id}`, source: 'fact', items: images.map(url => ({
        url, mediaType: 'image/unknown', lifetime: this.profile.attachment.inboundLifetime,
      })) })
    }
    if (this.running) {
      // The turn sees it at its next step; if it never does, afterTurn starts another turn.
      this.inbox.push(...entries)
      return
    }
    this.append(entries)
    // A waking fact starts a turn, which cancels any wait; only other facts fill its window.
    if (wake) this.request({ reason: wake })
    else this.wait?.countFact()
  }

  /** Starts a turn now, or right after the running one. */
  request(req: TurnRequest): void {
    if (this.stopped) return
    if (this.running) {
      // A second reason while busy: the next turn carries the first note; facts speak for themselves.
      this.queued ??= req
      return
    }
    this.running = this.loop(req)
  }

  private async loop(first: TurnRequest): Promise<void> {
    let next: TurnRequest | undefined = first
    try {
      while (next && !this.stopped) {
        this.queued = undefined
        this.cancelWait()
        await runTurn(this, next)
        next = this.queued
      }
    } catch (e) {
      this.deps.logger.error('conversation %s: turn failed: %s', this.key, (e as Error)?.stack ?? e)
    } finally {
      this.running = undefined
    }
  }

  /** Appends entries to memory and to disk (in that order, so a turn sees them at once). */
  append(entries: Entry[]): Promise<void> {
    this.entries.push(...entries)
    this.forgetOldEntries()
    return this.deps.store.append(entries).catch(e => {
      this.deps.logger.error('conversation %s: could not write history: %s', this.key, e?.message ?? e)
    })
  }

  /**
   * Memory keeps only the tail the context window can use (every kept entry is at least one
   * message, or an attachment/bookkeeping entry); the file keeps everything.
   */
  private memoryKeep(): number {
    return this.profile.context.maxMessages * 3 + 200
  }

  private forgetOldEntries(): void {
    const keep = this.memoryKeep()
    if (this.entries.length <= keep * 1.5) return
    this.entries.splice(0, this.entries.length - keep)
    this.forgotten = true
  }

  /** Moves facts that arrived during the turn into the history; returns them. */
  flushInbox(): Entry[] {
    const moved = this.inbox
    this.inbox = []
    if (moved.length) {
      this.append(moved)
      for (const e of moved) if (e.type === 'fact') this.wait?.countFact()
    }
    return moved
  }

  /** After a turn: a waking fact the turn never saw starts the next one. */
  afterTurn(state: TurnState): void {
    const unseen = this.flushInbox()
    const missed = unseen.find(e => e.type === 'fact' && e.wake)
    if (missed && missed.type === 'fact') this.queued ??= { reason: missed.wake }
    if (state.wait && !this.queued) this.armWait(state)
  }

  private armWait(state: TurnState): void {
    this.wait = new WaitWindow(state.wait, this.deps.now(), why => {
      this.wait = undefined
      this.request({ reason: `wait:${why.window}`, note: wakeNote(why) })
    }, (fn, ms) => this.deps.setTimer(fn, ms))
  }

  cancelWait(): void {
    this.wait?.cancel()
    this.wait = undefined
  }

  /** The messages of the next model request, with the attachments it shows as images. */
  async buildRequest(): Promise<ModelRequest> {
    const { maxMessages, maxChars } = this.profile.context
    const window = windowEntries(this.entries, { maxMessages, maxChars })
    const projection = await project({
      entries: window, config: this.profile.attachment, consumed: this.consumed,
      currentTurn: this.currentTurn?.number ?? this.turnCounter, load: url => this.deps.loadImage(url),
    })
    const messages = toModelMessages(window, this.cross, projection.byEntry)
    if (messages.length && (this.forgotten || window.length < this.entries.length || messages[0].role !== 'user')) {
      messages.unshift({ role: 'user', content: TRIMMED_NOTE })
    }
    return { messages, shownOnce: projection.shownOnce }
  }

  /** Records that the `once` attachments of a persisted response were shown. */
  async markShown(ids: string[]): Promise<void> {
    if (!ids.length) return
    ids.forEach(id => this.consumed.add(id))
    await this.append([{ type: 'shown', at: this.deps.now(), ids }])
  }

  async reset(): Promise<string | undefined> {
    this.cancelWait()
    this.entries = []
    this.forgotten = false
    return this.deps.store.reset()
  }

  /** Stops scheduling, aborts a model call in flight, lets sends settle, keeps the inbox. */
  async stop(): Promise<void> {
    this.stopped = true
    this.cancelWait()
    this.abort.abort(new Error('kotodama is stopping'))
    await this.running?.catch(() => {})
    this.flushInbox()
    await this.sends.idle()
    await this.deps.store.flushed()
  }
}

function targetOf(f: Fact): SendTarget {
  return { bot: f.bot, channel: f.channel, ...(f.guildId ? { guildId: f.guildId } : {}) }
}

/** asset:// images in a fact's content (people's media were registered as assets by the edge). */
function inboundImages(content: string): string[] {
  if (!content.includes('asset://')) return []
  return h.select(h.parse(content), 'img').map(el => el.attrs.src).filter((src: unknown): src is string => typeof src === 'string' && src.startsWith('asset://'))
}
