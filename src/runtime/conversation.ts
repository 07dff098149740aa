// One conversation: its history, its inbox while a turn runs, its pending wait, and the rule
// that only one turn runs at a time (SPEC §4.6). It is the turn loop's port.
import type { ProfileConfig } from '../config/types'
import type { MediaStores } from '../exit/store-media'
import { ModelHealth, type FailoverPort } from '../model/failover'
import type { ModelHandle } from '../model/provider'
import type { SendTarget, ToolHost } from '../tools/types'
import type { Tool, TurnState } from '../contract/tool'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import { SerialQueue } from '../util/serial-queue'
import type { HistoryBackend } from '../history/backend'
import { factAttachments } from './request/attachment-entries'
import { buildRequest, type ModelRequest } from './request/build-request'
import type { LoadedImage } from './request/projection'
import { runTurn } from './turn'
import type { TurnPort, TurnRequest } from './turn-port'
import type { Entry, Fact, LiveStep } from '../history/entries'
import { WaitWindow, wakeNote, type RestoredWait, type WaitFired } from './wait-window'
import { pendingWait, type WaitIndexPort } from './durable-waits'
import { factLine } from '../history/render-facts'
import { Arrivals } from '../attention/arrival'
import { TurnGate } from '../attention/gate'
import type { Verdict } from '../attention/judge'

export interface ConversationDeps {
  key: string
  profile: ProfileConfig
  logger: Logger
  clock: Clock
  redact: Redactor
  store: HistoryBackend
  /** where the unified exit stores media and archives */
  stores: MediaStores
  model(): ModelHandle | undefined
  /** fallback models, their health and the runtime's usage counters */
  failover?: FailoverPort
  system(): string
  /** The conversation's direct tools, made once for its tool host (rebuilt inside when extensions change). */
  toolsFor(host: ToolHost): () => Map<string, Tool>
  /** The runtime's side of the tool host; the conversation adds its channel and send queue. */
  hostFor(conv: { ownTarget(): SendTarget | undefined; serialize<T>(task: () => Promise<T>): Promise<T> }): ToolHost
  /** image bytes for projection */
  loadImage(url: string): Promise<LoadedImage>
  /** Runs before each turn (the memory cache looks for the owner's changes); never throws. */
  beforeTurn?(): Promise<void>
  /** told after entries were appended, a turn ended or the history was reset (the console page) */
  changed?(): void
  /** told the entries appended, as they are appended (recall indexes what was said, SPEC §17) */
  indexed?(entries: Entry[]): void
  /** the runtime's index of pending waits, for this conversation's key (SPEC §15: durable) */
  waits?: WaitIndexPort
  /** asks wake.judge whether to speak (SPEC §15); absent when none is configured */
  judge?(o: { reason: string; lines: string[] }): Promise<Verdict>
}

/** lines of chat the judge reads */
const JUDGE_LINES = 12

export class Conversation implements TurnPort {
  readonly sends = new SerialQueue()
  readonly tools: () => Map<string, Tool>
  entries: Entry[] = []
  /** The channel of channel mode; in cross mode the channel of the latest fact. */
  target?: SendTarget
  wait?: WaitWindow
  currentTurn?: TurnState
  /** the step whose calls run now (the console's live view) */
  live?: LiveStep
  private turnCounter = 0
  private inbox: Entry[] = []
  /** keys of `once` attachments already shown */
  private consumed = new Set<string>()
  /** older entries were dropped from memory (they are still on disk) */
  private forgotten = false
  /** the first entry of the last request's window: the next one extends it while it fits (SPEC §16) */
  private windowAnchor?: Entry
  private running?: Promise<void>
  private queued?: TurnRequest
  private abort = new AbortController()
  readonly toolSignal = new AbortController().signal
  private stopped = false
  /** what arriving facts do: wake, stay quiet, interrupt a send (SPEC §15) */
  private arrivals: Arrivals
  /** when the next turn starts: bursts, cooldown, the judge (SPEC §15) */
  private gate: TurnGate
  /** sends typing now, told when people write (timing.yield) */
  private typing = new Set<() => void>()

  constructor(readonly deps: ConversationDeps) {
    this.arrivals = new Arrivals(deps.profile)
    this.gate = new TurnGate({
      clock: deps.clock, timing: () => this.profile.timing,
      start: req => this.startTurn(req),
      judge: deps.judge && (reason => deps.judge!({ reason, lines: this.recentLines() })),
      declined: (reason, why) => {
        this.logger.debug('conversation %s: a wake (%s) was declined: %s', this.key, reason, why)
        void this.append([{ type: 'declined', at: this.clock.now(), reason, why }])
      },
    })
    const host = deps.hostFor({
      ownTarget: () => this.profile.mode === 'channel' ? this.target : undefined,
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
  get busy() { return !!this.running }
  /** no turn, no pending wait, nothing queued, a disk that takes writes: it may be unloaded (writes in flight finish first) */
  get idle() { return !this.running && !this.queued && !this.wait && !this.gate.waiting && !this.inbox.length && !this.deps.store.stuck }
  get signal() { return this.abort.signal }

  model() { return this.deps.model() }
  /** without a runtime's (a conversation tested alone): no fallbacks, nothing counted */
  failover() {
    return this.deps.failover ??= { health: new ModelHealth(this.clock, this.logger), handle: () => undefined, record: () => {} }
  }
  system() { return this.deps.system() }
  lastTarget() { return this.target }

  async load(): Promise<void> {
    const { entries, more } = await this.deps.store.loadTail(this.memoryKeep())
    this.entries = entries
    this.forgotten = more
    for (const e of this.entries) {
      if ((e.type === 'turn' || e.type === 'step') && e.turn > this.turnCounter) this.turnCounter = e.turn
      if (e.type === 'fact') this.target = targetOf(e.fact)
      if (e.type === 'shown') e.ids.forEach(id => this.consumed.add(id))
    }
    this.restoreWait(more)
    this.forgetOldEntries()
  }

  /** A wait of the history that no turn followed is pending again, counted from its stored time (SPEC §15). */
  private restoreWait(more: boolean): void {
    const pending = pendingWait(this.entries, more, this.deps.waits?.stored())
    if (!pending) return this.deps.waits?.ended()
    const { at, ...declaration } = pending.wait
    this.startWait(declaration, at, { now: this.clock.now(), seen: pending.seen })
    this.deps.waits?.armed(pending.wait)
  }

  /**
   * Stores a fact; a turn in progress sees it at its next step (and may stop typing for it). A
   * waking fact goes to the gate, which starts one turn for a burst (SPEC §15).
   * false when the conversation has stopped: the fact is not stored here (the caller tries again).
   */
  receive(fact: Fact, wake?: string): boolean {
    if (this.stopped) return false
    this.target = targetOf(fact)
    const held = this.arrivals.held(fact, wake, this.clock.now())
    const wakes = held ? undefined : wake
    const entries: Entry[] = [{ type: 'fact', at: fact.at, fact, ...(wakes ? { wake: wakes } : {}), ...(held ? { held } : {}) }]
    // A fact is first seen by the next turn (or the running one, at its next step).
    const images = factAttachments(fact, this.currentTurn?.number ?? this.turnCounter + 1, this.profile.attachment.inboundLifetime)
    if (images) entries.push(images)
    if (this.running) {
      // The turn sees it at its next step; if it never does, endTurn hands it to the gate.
      this.inbox.push(...entries)
      this.gate.heard()
      if (this.arrivals.interrupts(wake, held)) this.typing.forEach(stop => stop())
      return true
    }
    this.append(entries)
    // A waking fact starts a turn, which cancels any wait; only other facts fill its window.
    if (wakes) this.gate.wake(wakes)
    else {
      this.gate.heard()
      this.wait?.countFact()
    }
    return true
  }

  /** A turn for an explicit wake-up or a wait window: now (after the judge, for a wait), or right after the running one. */
  request(req: TurnRequest): void {
    if (this.stopped) return
    this.gate.consider(req)
  }

  private startTurn(req: TurnRequest): void {
    if (this.stopped) return
    if (this.running) {
      // A second reason while busy: the next turn carries the first note; facts speak for themselves.
      this.queued ??= req
      return
    }
    this.running = this.loop(req)
  }

  /** The newest lines of the chat, for the judge. */
  private recentLines(): string[] {
    const out: string[] = []
    for (let i = this.entries.length - 1; i >= 0 && out.length < JUDGE_LINES; i--) {
      const e = this.entries[i]
      if (e.type === 'fact') out.push(factLine(e.fact))
    }
    return out.reverse()
  }

  private async loop(first: TurnRequest): Promise<void> {
    let next: TurnRequest | undefined = first
    try {
      while (next && !this.stopped) {
        this.queued = undefined
        this.cancelWait()
        await this.deps.beforeTurn?.()
        await runTurn(this, next)
        next = this.queued
      }
    } catch (e) {
      this.logger.error('conversation %s: turn failed: %s', this.key, (e as Error)?.stack ?? e)
    } finally {
      this.running = undefined
      this.deps.changed?.()
    }
  }

  beginTurn(req: TurnRequest): TurnState {
    const now = this.clock.now()
    // the wait for a burst counts as thinking: the first typing pause is shortened by it (SPEC §15)
    const state: TurnState = {
      number: ++this.turnCounter, wokeAt: Math.min(req.since ?? now, now), conversation: this.key,
      watchArrivals: fn => {
        this.typing.add(fn)
        return () => this.typing.delete(fn)
      },
    }
    this.currentTurn = state
    // the model reads the turn entry as `[now: …]` (turn-line.ts): the time lives in the history,
    // where later requests repeat it, not in the system prompt (SPEC §16)
    const why = { ...(req.merged && req.merged > 1 ? { merged: req.merged } : {}), ...(req.waitedMs ? { waitedMs: req.waitedMs } : {}), ...(req.late ? { late: true } : {}) }
    const opening: Entry[] = [{ type: 'turn', at: now, turn: state.number, reason: req.reason, ...why }]
    if (req.note) opening.push({ type: 'note', at: now, kind: 'wake', text: req.note })
    this.append(opening)
    return state
  }

  /** After a turn: a waking fact the turn never saw starts the next one. */
  endTurn(state: TurnState): void {
    this.currentTurn = undefined
    this.live = undefined
    const unseen = this.takeInbox()
    const missed = unseen.find(e => e.type === 'fact' && e.wake)
    this.typing.clear()
    this.gate.turnEnded()
    if (missed && missed.type === 'fact') this.gate.wake(missed.wake)
    if (state.wait && !this.queued && !this.gate.waiting) this.armWait(state)
  }

  /** Appends entries to memory and to disk (in that order, so a turn sees them at once). */
  append(entries: Entry[]): Promise<void> {
    this.entries.push(...entries)
    this.forgetOldEntries()
    this.deps.changed?.()
    this.deps.indexed?.(entries)
    // a failed write is logged by the store, which keeps the entries and writes them again
    return this.deps.store.append(entries).catch(() => {})
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

  flushInbox(): void {
    this.takeInbox()
  }

  /** Moves facts that arrived during the turn into the history; returns them. */
  private takeInbox(): Entry[] {
    const moved = this.inbox
    this.inbox = []
    if (moved.length) {
      this.append(moved)
      for (const e of moved) if (e.type === 'fact') this.wait?.countFact()
    }
    return moved
  }

  /** The turn's wait goes into the history and the index first: a restart finds it there (SPEC §15). */
  private armWait(state: TurnState): void {
    const stored = { at: this.clock.now(), ...state.wait }
    void this.append([{ type: 'wait', ...stored }])
    this.deps.waits?.armed(stored)
    // a turn that ended because the conversation stops leaves its wait to the next start
    if (!this.stopped) this.startWait(state.wait, stored.at)
  }

  private startWait(declaration: NonNullable<TurnState['wait']>, at: number, restored?: RestoredWait): void {
    this.wait = new WaitWindow(declaration, at, why => {
      this.wait = undefined
      // the index keeps the key until the turn starts (a judge may still say no)
      this.request({ reason: `wait:${why.window}`, note: wakeNote(why), ...(isLate(why) ? { late: true } : {}) })
    }, (fn, ms) => { const t = this.clock.setTimeout(fn, ms); return () => t.cancel() }, restored)
  }

  /** A turn starts or the history is reset: the wait is over. `ended: false` when only stopping (it stays pending). */
  cancelWait(ended = true): void {
    this.wait?.cancel()
    this.wait = undefined
    if (ended) this.deps.waits?.ended()
  }

  /** The messages of the next model request, with the attachments it shows as images. */
  async buildRequest(maxChars?: number): Promise<ModelRequest> {
    const request = await buildRequest({
      maxChars, anchor: this.windowAnchor,
      entries: this.entries, profile: this.profile, forgotten: this.forgotten, consumed: this.consumed,
      currentTurn: this.currentTurn?.number ?? this.turnCounter, loadImage: url => this.deps.loadImage(url),
      archive: text => this.stores.artifacts.write({ namespace: 'context', data: text, mediaType: 'text/plain', tool: 'context' }),
    })
    this.windowAnchor = request.anchor
    return request
  }

  showStep(live: LiveStep | undefined): void {
    this.live = live
    this.deps.changed?.()
  }

  /** Records that the `once` attachments of a persisted response were shown. */
  markShown(ids: string[]): void {
    if (!ids.length) return
    ids.forEach(id => this.consumed.add(id))
    void this.append([{ type: 'shown', at: this.clock.now(), ids }])
  }

  /** Resolves when everything appended so far is on disk (or could not be written). */
  written(): Promise<void> {
    return this.deps.store.idle()
  }

  async reset(): Promise<string | undefined> {
    this.cancelWait()
    this.entries = []
    this.forgotten = false
    this.windowAnchor = undefined
    this.deps.changed?.()
    return this.deps.store.reset()
  }

  /** Stops scheduling, aborts a model call in flight, lets sends settle, keeps the inbox. */
  async stop(): Promise<void> {
    this.stopped = true
    this.gate.stop()
    this.cancelWait(false)
    this.abort.abort(new Error('kotodama is stopping'))
    await this.running?.catch(() => {})
    this.takeInbox()
    await this.sends.idle()
    await this.deps.store.flushed()
  }
}

const isLate = (why: WaitFired) => why.window === 'time' && why.lateMs !== undefined

function targetOf(f: Fact): SendTarget {
  return { bot: f.bot, channel: f.channel, ...(f.guildId ? { guildId: f.guildId } : {}), ...(f.rawChannel ? { rawChannel: f.rawChannel } : {}) }
}
