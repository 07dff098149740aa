// One conversation: its history, its inbox while a turn runs, and the rule that only one turn
// runs at a time (SPEC §4.6). It is the turn loop's port; its attention (conversation-attention.ts),
// its pending wait (conversation-wait.ts), its request books (request-books.ts), its inbox
// (turn-inbox.ts) and the chats its turns are held in (conversation-chats.ts) are parts of it.
import { ModelCalls } from '../model/calls'
import type { SendTarget } from '../tools/types'
import { targetOf } from './fact-target'
import type { Tool, TurnState } from '../contract/tool'
import { SerialQueue } from '../util/serial-queue'
import { factAttachments } from './request/attachment-entries'
import type { ModelRequest } from './request/build-request'
import { runTurn } from './turn'
import type { TurnPort, TurnRequest } from './turn-port'
import type { Entry, Fact, LiveStep } from '../history/entries'
import { EntryTail } from './entry-tail'
import type { Attention } from '../attention/attention'
import { conversationAttention } from './conversation-attention'
import { fillsWait, passive } from '../attention/arrival'
import { selfWakes } from '../attention/self-wakes'
import { turnAuthors, withAskedFor } from './turn-authors'
import type { ConversationDeps } from './conversation-deps'
import { ConversationWait } from './conversation-wait'
import type { WaitWindow } from './wait-window'
import { RequestBooks } from './request-books'
import { TurnRunner } from './turn-runner'
import { turnOpening } from './turn-opening'
import { ConversationChats } from './conversation-chats'
import { TurnInbox } from './turn-inbox'
import { ChatPlace } from './prompt/chat-place'

export type { ConversationDeps } from './conversation-deps'

export class Conversation implements TurnPort {
  readonly sends = new SerialQueue()
  readonly tools: () => Map<string, Tool>
  /** The channel of channel mode; in cross mode the channel of the latest fact. */
  target?: SendTarget
  currentTurn?: TurnState
  /** the step whose calls run now (the console's live view) */
  live?: LiveStep
  private turnCounter = 0
  /** facts that arrived during the running turn */
  private inbox = new TurnInbox({ append: e => void this.append(e), counted: f => this.waiting.countFact(f) })
  private tail = new EntryTail(() => this.profile.context.maxMessages)
  private turns: TurnRunner
  private abort = new AbortController()
  readonly toolSignal = new AbortController().signal
  private stopped = false
  /** what arriving facts do and when the next turn starts (SPEC §15) */
  private attention: Attention
  private waiting: ConversationWait
  private books: RequestBooks
  /** which chat each turn is held in, and the private chats owed a turn (SPEC §22) */
  private chats: ConversationChats
  /** where it is: the system prompt says it (SPEC §27) */
  private place: ChatPlace

  constructor(readonly deps: ConversationDeps) {
    this.attention = conversationAttention(deps, {
      start: req => this.turns.start(req), recentLines: n => this.tail.recentLines(n, deps.timezone),
      authors: () => turnAuthors(this.tail.entries, this.tail.entries.length), append: e => void this.append(e),
    })
    this.turns = new TurnRunner({
      key: deps.key, logger: deps.logger, stopped: () => this.stopped, ended: () => this.deps.changed?.(),
      run: async req => {
        this.cancelWait()
        const lines = await this.deps.beforeTurn?.()
        await runTurn(this, lines?.length ? { ...req, note: [req.note, ...lines].filter(Boolean).join('\n') } : req)
      },
    })
    this.waiting = new ConversationWait({
      clock: deps.clock, index: deps.waits, fills: f => fillsWait(f, this.profile.wake),
      append: e => void this.append(e), fire: req => this.request(req),
    })
    this.chats = new ConversationChats(deps.key, deps.profile)
    this.place = new ChatPlace(deps.key)
    this.books = new RequestBooks({ loadImage: url => deps.loadImage(url), artifacts: () => deps.stores.artifacts, owner: deps.key })
    const host = deps.hostFor({
      ownTarget: () => this.profile.mode === 'channel' ? this.target : undefined, entries: () => this.tail.entries,
      serialize: task => this.sends.run(task),
    })
    this.tools = deps.toolsFor(host)
  }

  get key() { return this.deps.key }
  get profile() { return this.deps.profile }
  get logger() { return this.deps.logger }
  get clock() { return this.deps.clock }
  get stores() { return this.deps.stores }
  get redact() { return this.deps.redact }
  get busy() { return this.turns.busy }
  get wait(): WaitWindow | undefined { return this.waiting.current }
  /** no turn, no pending wait, nothing queued, a disk that takes writes: it may be unloaded (writes in flight finish first) */
  get idle() {
    return !this.turns.busy && !this.turns.queued && !this.wait && !this.attention.waiting && this.inbox.empty && !this.deps.store.stuck
  }
  get signal() { return this.abort.signal }
  get entries(): Entry[] { return this.tail.entries }

  model() { return this.deps.model() }
  /** without a runtime's (a conversation tested alone): no fallbacks, nothing counted */
  calls() {
    return this.deps.calls ??= new ModelCalls({ models: new Map(), usage: { record: () => {} }, clock: this.clock, logger: this.logger })
  }
  system() { return this.deps.system(this.currentTurn?.chat, this.place.current) }
  lastTarget() { return this.target }

  async load(): Promise<void> {
    const { entries, more } = await this.deps.store.loadTail(this.tail.keep)
    this.tail.loaded(entries, more)
    for (const e of entries) {
      if ((e.type === 'turn' || e.type === 'step') && e.turn > this.turnCounter) this.turnCounter = e.turn
      if (e.type === 'fact') {
        this.target = targetOf(e.fact)
        this.place.saw(e.fact)
      }
      this.books.loaded(e)
    }
    this.waiting.restore(entries, more)
    this.deps.loaded?.(entries, this.profile.mode === 'channel' ? this.target?.channel : undefined)
    this.tail.trim()
  }

  /**
   * Stores a fact; a turn in progress sees it at its next step (and may stop typing for it). A
   * waking fact goes to the gate, which starts one turn for a burst (SPEC §15). A passive fact (pulled, SPEC §19; a reaction, §23)
   * is history, not an arrival: it never wakes, restarts a burst wait, stops a send or fills a wait.
   * false when the conversation has stopped: the fact is not stored here (the caller tries again).
   */
  receive(fact: Fact, wake?: string): boolean {
    if (this.stopped) return false
    if (!this.tail.admit(fact)) return true   // pulled after downtime and delivered live: stored once (SPEC §19)
    // a reaction is no message: a stray text still goes where people last wrote
    if (fact.notice !== 'reaction') this.target = targetOf(fact)
    this.place.saw(fact)
    const quiet = passive(fact)
    const arrival = quiet ? {} : this.attention.arrive(fact, wake, this.clock.now())
    const entries: Entry[] = [{ type: 'fact', at: fact.at, fact, ...arrival }]
    // A fact is first seen by the next turn (or the running one, at its next step).
    const images = factAttachments(fact, this.currentTurn?.number ?? this.turnCounter + 1, this.profile.attachment.inboundLifetime)
    if (images) entries.push(images)
    if (this.turns.busy) {
      // The turn sees it at its next step; if it never does, endTurn hands it to the gate.
      this.inbox.hold(entries)
      if (!quiet) this.attention.duringTurn(arrival, wake, fact)
      return true
    }
    this.append(entries)
    // A waking fact starts a turn, which cancels any wait; only other facts fill its window.
    if (!quiet) this.attention.between(arrival)
    if (!arrival.wake) this.waiting.countFact(fact)
    return true
  }

  /** Whether this conversation holds the platform message `id` of `channel` (SPEC §19). */
  holds(channel: string, id: string): boolean { return this.tail.holds(channel, id) }

  /** A turn for an explicit wake-up or a wait window: now (after the judge, for a wait), or right after the running one. */
  request(req: TurnRequest): void {
    if (this.stopped) return
    this.attention.consider(req)
  }

  beginTurn(req: TurnRequest): TurnState {
    const now = this.clock.now()
    const { chat, recorded } = this.chats.hold(this.tail.entries, req)
    // the wait for a burst counts as thinking: the first typing pause is shortened by it (SPEC §15)
    const state: TurnState = {
      number: ++this.turnCounter, wokeAt: Math.min(req.since ?? now, now), conversation: this.key, chat,
      authors: withAskedFor(turnAuthors(this.tail.entries, this.tail.entries.length), req.authors), ...this.deps.owners ? { owners: this.deps.owners } : {},
      watchArrivals: fn => this.attention.watchArrivals(fn),
      selfWakes: () => selfWakes(this.tail.entries, this.profile),
    }
    this.currentTurn = state
    this.append(turnOpening(req, state.number, now, recorded))
    return state
  }

  /** After a turn: a waking fact the turn never saw starts the next one. */
  endTurn(state: TurnState): void {
    this.currentTurn = undefined
    this.live = undefined
    const missed = this.inbox.take().find(e => e.type === 'fact' && e.wake)
    this.attention.turnEnded(missed?.type === 'fact' ? missed.wake : undefined)
    // a private chat that woke this turn held elsewhere gets its own turn (SPEC §22)
    const owed = this.chats.owed()
    if (owed && !this.turns.queued && !this.attention.waiting) this.request(owed)
    if (state.wait && !this.turns.queued && !this.attention.waiting) this.waiting.arm(state.wait, !this.stopped)
  }

  /** Appends entries to memory and to disk (in that order, so a turn sees them at once). */
  append(entries: Entry[]): Promise<void> {
    this.tail.push(entries)
    this.deps.changed?.()
    this.deps.indexed?.(entries)
    // a failed write is logged by the store, which keeps the entries and writes them again
    return this.deps.store.append(entries).catch(() => {})
  }

  flushInbox(): void { this.inbox.take() }

  /** A turn starts or the history is reset: the wait is over. `ended: false` when only stopping (it stays pending). */
  cancelWait(ended = true): void {
    this.waiting.cancel(ended)
  }

  /** The messages of the next model request, with the attachments it shows as images. */
  buildRequest(maxChars?: number): Promise<ModelRequest> {
    const currentTurn = this.currentTurn?.number ?? this.turnCounter
    // cross mode: a private chat's facts and turns only in a turn held there (SPEC §22)
    const { entries, view } = this.chats.visible(this.tail.entries, this.currentTurn?.chat)
    const zone = this.deps.timezone
    return this.books.build({ maxChars, entries, profile: this.profile, forgotten: this.tail.forgotten, currentTurn, view, zone })
  }

  showStep(live: LiveStep | undefined): void {
    this.live = live
    this.deps.changed?.()
  }

  /** Records that the `once` attachments of a persisted response were shown. */
  markShown(ids: string[]): void {
    const entry = this.books.shown(ids, this.clock.now())
    if (entry) void this.append([entry])
  }

  /** Resolves when no turn runs (the one running now and those queued behind it have ended). */
  settled(): Promise<void> {
    return this.turns.settled()
  }

  /** The size of the stored history (the console); undefined when the store cannot tell. */
  storedBytes(): Promise<number | undefined> {
    return this.deps.store.storedBytes()
  }

  /** Resolves when everything appended so far is on disk (or could not be written). */
  written(): Promise<void> {
    return this.deps.store.idle()
  }

  async reset(): Promise<string | undefined> {
    this.cancelWait()
    this.tail.clear()
    this.books.reset()
    this.deps.changed?.()
    return this.deps.store.reset()
  }

  /** Stops scheduling, aborts a model call in flight, lets sends settle, keeps the inbox. */
  async stop(): Promise<void> {
    this.stopped = true
    this.attention.stop()
    this.cancelWait(false)
    this.abort.abort(new Error('kotodama is stopping'))
    await this.turns.settled()
    this.inbox.take()
    await this.sends.idle()
    await this.deps.store.flushed()
  }
}
