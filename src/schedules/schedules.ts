// The tasks of one runtime (SPEC §25, docs/schedules.md): kept in a store, indexed in memory, fired
// by one timer set for the soonest. A firing is stored before its turn is asked for (exactly once:
// with a shared database the store's conditional update lets one instance win); a firing whose turn
// has not started when the runtime stops is put back, so it fires, late, at the next start.
import type { TurnAuthor } from '../contract/authors'
import type { PartTurnRequest } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { Clock, Timer } from '../util/clock'
import type { Logger } from '../util/logger'
import type { SchedulesConfig } from './config'
import { DueHeap } from './due-heap'
import { openingNote } from './opening-note'
import type { TaskStore } from './store'
import { newTaskId, type Task, type TaskAsker } from './task'
import { cronOf, firstRun, localTime, nextRun, parseAt, type TimeError } from './times'

/** timers longer than this are set again when they run out (setTimeout's limit is 24.8 days) */
const LONGEST_TIMER = 86_400_000
/** a store that refused a firing is asked again this much later */
const RETRY_MS = 60_000
/** a task due in a muted channel (a pause, a ban: SPEC §19) looks again this much later */
const MUTED_RETRY_MS = 30 * 60_000
/** a store other instances write (the database) is read again this often */
export const REFRESH_MS = 5 * 60_000

export interface SchedulesDeps {
  config: SchedulesConfig
  /** budgets.timezone ('' : the host's) */
  zone: string
  store: TaskStore
  clock: Clock
  logger: Logger
  random(): number
  /** false: the platform forbids proactive messages (QQ's official API) */
  proactive(): boolean
  muted(channel: string): boolean
  request(channel: string, req: PartTurnRequest): Promise<void>
  /** other instances may change the store (a shared database): it is read again every REFRESH_MS */
  shared?: boolean
}

export type ScheduleError = TimeError | { name: 'TooMany' | 'ProactiveForbidden' | 'NotFound' | 'NotStored'; message: string }

/** What `add` is asked for. */
export type NewTask = { conversation: string; channel: string; who: TaskAsker; note: string; at?: string; cron?: string }

/** A task as the tool lists it (SPEC §25). */
export interface TaskView {
  id: string
  next: string
  note: string
  cron?: string
  who: { id: string; name: string }
}

/** A firing stored, its turn not started yet: what it was, and what the firing stored. */
interface Flight {
  task: Task
  after: Task | undefined
}

export class Schedules implements RuntimePart {
  readonly name = 'schedules'
  private tasks = new Map<string, Task>()
  private heap = new DueHeap()
  private timer?: Timer
  private timerAt = Infinity
  private flights = new Set<Flight>()
  /** fires whose store write is in progress */
  private firing = new Map<string, Promise<void>>()
  /** ms: a task not looked at again before (a store that failed, a muted channel) */
  private heldUntil = new Map<string, number>()
  private loaded?: Promise<void>
  private stopped = false
  private refreshedAt = 0
  private adding: Promise<unknown> = Promise.resolve()

  constructor(private d: SchedulesDeps) {}

  start(): Promise<void> {
    this.loaded ??= this.load()
    return this.loaded
  }

  private async load(): Promise<void> {
    try {
      this.index(await this.d.store.load())
    } catch (e: any) {
      this.d.logger.warn('schedules %s could not be read: %s; the tasks there fire once they can be', this.d.store.where, e?.message ?? e)
    }
    this.refreshedAt = this.d.clock.now()
    this.arm()
  }

  private index(tasks: readonly Task[]): void {
    this.tasks.clear()
    this.heap.clear()
    for (const t of tasks) this.put(t)
  }

  private put(t: Task): void {
    this.tasks.set(t.id, t)
    this.heap.push(t.next, t.id)
  }

  /** the soonest entry still current */
  private soonest() {
    if (this.heap.size > 2 * this.tasks.size + 64) this.index([...this.tasks.values()])
    return this.heap.peek((id, at) => this.tasks.get(id)?.next === at)
  }

  // ---- asking, listing, cancelling (the tool, the console, the command) ----

  /** Adds a task of `conversation` held in `channel`; nothing is stored when it is refused. One at a time:
   *  adds at once (a program's Promise.all) would each count the bounds before any of them is stored. */
  add(o: NewTask): Promise<{ id: string; next: string } | ScheduleError> {
    const run = this.adding.then(() => this.addNow(o))
    this.adding = run.catch(() => {})
    return run
  }

  private async addNow(o: NewTask): Promise<{ id: string; next: string } | ScheduleError> {
    const { config, zone } = this.d
    const now = this.d.clock.now()
    if (!this.d.proactive()) return { name: 'ProactiveForbidden', message: 'this platform lets the bot speak only in answer to a message, so nothing can fire later' }
    let next: number
    let cron: string | undefined
    if (o.cron !== undefined) {
      const made = cronOf(o.cron, zone)
      if (!('cron' in made)) return made
      const first = firstRun(made.cron, o.cron, now, config.minIntervalMinutes)
      if (!('next' in first)) return first
      next = first.next
      cron = o.cron.trim().replace(/\s+/g, ' ')
    } else {
      const at = parseAt(o.at ?? '', zone, now)
      if (!('at' in at)) return at
      next = at.at
    }
    await this.start()
    const open = this.openOf(o.conversation)
    if (open.length >= config.perConversation) return { name: 'TooMany', message: `this chat has ${open.length} open tasks, the most allowed; cancel one first` }
    const mine = [...this.tasks.values()].filter(t => t.who.platform === o.who.platform && t.who.id === o.who.id).length
    if (mine >= config.perUser) return { name: 'TooMany', message: `${o.who.name ?? o.who.id} has ${mine} open tasks, the most one person may ask for; cancel one first` }
    const task: Task = {
      id: newTaskId(id => this.tasks.has(id), this.d.random), conversation: o.conversation, channel: o.channel, note: o.note,
      ...cron ? { cron } : {}, next, who: o.who, asked: now, rev: 0,
    }
    try {
      await this.d.store.add(task)
    } catch (e: any) {
      return { name: 'NotStored', message: `the task could not be stored (${e?.message ?? e}); nothing was scheduled` }
    }
    this.put(task)
    this.arm(task.next)
    return { id: task.id, next: localTime(task.next, zone) }
  }

  /** The open tasks of `conversation`, soonest first. */
  openOf(conversation: string): Task[] {
    return [...this.tasks.values()].filter(t => t.conversation === conversation).sort((a, b) => a.next - b.next)
  }

  /** Every open task, soonest first (the console). */
  all(): Task[] {
    return [...this.tasks.values()].sort((a, b) => a.next - b.next)
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id)
  }

  view(t: Task): TaskView {
    return { id: t.id, next: localTime(t.next, this.d.zone), note: t.note, ...t.cron ? { cron: t.cron } : {}, who: { id: t.who.id, name: t.who.name ?? t.who.id } }
  }

  /** Removes task `id`; NotFound when it is gone (fired, cancelled, or never was). Who may is the caller's check. */
  async cancel(id: string): Promise<{ ok: true } | ScheduleError> {
    await this.start()
    const task = this.tasks.get(id)
    if (!task) return { name: 'NotFound', message: `no open task #${id}` }
    try {
      await this.d.store.remove(task)
    } catch (e: any) {
      return { name: 'NotStored', message: `the task could not be removed (${e?.message ?? e}); it stays` }
    }
    this.tasks.delete(id)
    this.heldUntil.delete(id)
    return { ok: true }
  }

  // ---- firing ----

  /** Sets the timer for `at`, or (no argument) for the soonest task. */
  private arm(at?: number): void {
    if (this.stopped) return
    if (at === undefined) {
      at = this.soonest()?.at ?? Infinity
      for (const until of this.heldUntil.values()) if (until < at) at = until
      if (this.d.shared) at = Math.min(at, this.refreshedAt + REFRESH_MS)
      this.timer?.cancel()
      this.timer = undefined
      this.timerAt = Infinity
    }
    if (at === Infinity || (this.timer && this.timerAt <= at)) return
    this.timer?.cancel()
    this.timerAt = at
    const wait = Math.min(Math.max(0, at - this.d.clock.now()), LONGEST_TIMER)
    this.timer = this.d.clock.setTimeout(() => void this.tick(), wait).unref()
  }

  private async tick(): Promise<void> {
    this.timer = undefined
    this.timerAt = Infinity
    if (this.stopped) return
    let now = this.d.clock.now()
    if (this.d.shared && now >= this.refreshedAt + REFRESH_MS) await this.refresh()
    now = this.d.clock.now()
    const due: Task[] = []
    const later: [number, string][] = []
    for (let top = this.soonest(); top && top.at <= now; top = this.soonest()) {
      this.heap.pop()
      const task = this.tasks.get(top.id)!
      const held = this.heldUntil.get(task.id)
      if (held !== undefined && held > now) later.push([task.next, task.id])
      else due.push(task)
    }
    // a held task stays due: back into the heap, looked at again when its hold ends
    for (const [at, id] of later) this.heap.push(at, id)
    await Promise.all(due.map(t => this.fire(t, now)))
    this.arm()
  }

  /** Reads a shared store again: tasks another instance added, fired or cancelled. */
  private async refresh(): Promise<void> {
    this.refreshedAt = this.d.clock.now()
    try {
      const stored = await this.d.store.load()
      if (!this.stopped) this.index(stored)
    } catch (e: any) {
      this.d.logger.warn('schedules %s could not be read again: %s', this.d.store.where, e?.message ?? e)
    }
  }

  private fire(task: Task, now: number): Promise<void> {
    const going = this.firing.get(task.id)
    if (going) return going
    const run = this.fireOnce(task, now).finally(() => this.firing.delete(task.id))
    this.firing.set(task.id, run)
    return run
  }

  private async fireOnce(task: Task, now: number): Promise<void> {
    const { logger, zone } = this.d
    if (this.d.muted(task.channel)) {
      this.heldUntil.set(task.id, now + MUTED_RETRY_MS)
      return
    }
    this.heldUntil.delete(task.id)
    // a repeating task moves past now: the runs it missed while down are one late firing, not many
    const next = task.cron ? this.nextAfter(task, Math.max(now, task.next)) : undefined
    let won: boolean
    try {
      won = await this.d.store.fired(task, next)
    } catch (e: any) {
      logger.warn('schedule #%s of %s: the firing could not be stored (%s); trying again in a minute', task.id, task.conversation, e?.message ?? e)
      this.heldUntil.set(task.id, this.d.clock.now() + RETRY_MS)
      return
    }
    if (!won) {
      // another instance fired or cancelled it: what the store holds now decides
      logger.debug('schedule #%s of %s changed elsewhere; not fired here', task.id, task.conversation)
      this.tasks.delete(task.id)
      if (this.d.shared) this.refreshedAt = 0
      return
    }
    const after = next === undefined ? undefined : { ...task, next, rev: task.rev + 1 }
    if (after) this.put(after)
    else this.tasks.delete(task.id)
    if (this.stopped) return void await this.putBack({ task, after })
    const flight: Flight = { task, after }
    this.flights.add(flight)
    const who: TurnAuthor = { platform: task.who.platform, id: task.who.id, ...task.who.name ? { name: task.who.name } : {} }
    const note = openingNote(task, now, zone)
    logger.debug('schedule #%s of %s fires: %s', task.id, task.conversation, note)
    // the turn acts for who asked: they pay for it, and may cancel the task in it (SPEC §22)
    this.d.request(task.channel, { reason: 'schedule', note, authors: [who], kept: true, wanted: () => this.started(flight) }).catch(e => {
      logger.warn('schedule #%s of %s: its turn could not start (%s); it fires again', task.id, task.conversation, e?.message ?? e)
      if (this.flights.delete(flight)) void this.putBack(flight).then(() => this.arm())
    })
  }

  /** The next run of a repeating task after `after`; undefined when it has none any more. */
  private nextAfter(task: Task, after: number): number | undefined {
    const made = cronOf(task.cron!, this.d.zone)
    return 'cron' in made ? nextRun(made.cron, after) : undefined
  }

  /** Asked as the turn starts: it did, so the firing is done (false once the runtime stops: it is put back). */
  private started(flight: Flight): boolean {
    if (this.stopped || !this.flights.delete(flight)) return false
    return true
  }

  private async putBack(flight: Flight): Promise<void> {
    try {
      const back = await this.d.store.restore(flight.task, flight.after)
      if (!this.stopped) this.put(back)
    } catch (e: any) {
      this.d.logger.warn('schedule #%s of %s fired but its turn never started, and it could not be put back: %s',
        flight.task.id, flight.task.conversation, e?.message ?? e)
    }
  }

  // ---- the runtime's part ----

  /** Conversations keep their tasks when unloaded or reset: a promise outlives the history's tail. */
  get size(): number {
    return this.tasks.size
  }

  async written(): Promise<void> {
    await this.loaded
    await Promise.all(this.firing.values())
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.timer?.cancel()
    await this.loaded
    await Promise.all(this.firing.values())
    // firings whose turn never started fire at the next start, late
    const waiting = [...this.flights]
    this.flights.clear()
    for (const f of waiting) await this.putBack(f)
    await this.d.store.stop()
  }
}
