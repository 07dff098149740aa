// The tasks of one runtime (SPEC §25, docs/schedules.md): kept in a store, indexed in memory, fired
// by one timer set for the soonest. A firing is stored before its turn is asked for (exactly once:
// with a shared database the store's conditional update lets one instance win); a firing whose turn
// has not started when the runtime stops is put back, so it fires, late, at the next start.
import type { TurnAuthor } from '../contract/authors'
import type { PartTurnRequest } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { Clock } from '../util/clock'
import { SoonestTimer } from '../util/soonest-timer'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import type { SchedulesConfig } from './config'
import { openingNote } from './opening-note'
import type { TaskStore } from './store'
import { newTask, type NewTask, type ScheduleError } from './new-task'
import type { Task, TaskView } from './task'
import { TaskIndex } from './task-index'
import { cronOf, localTime, nextRun } from './times'

export type { NewTask, ScheduleError } from './new-task'
export type { TaskView } from './task'

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

/** A firing stored, its turn not started yet: what it was, and what the firing stored. */
interface Flight {
  task: Task
  after: Task | undefined
}

export class Schedules implements RuntimePart {
  readonly name = 'schedules'
  private tasks = new TaskIndex()
  private timer: SoonestTimer
  private flights = new Set<Flight>()
  /** fires whose store write is in progress */
  private firing = new Map<string, Promise<void>>()
  /** ms: a task not looked at again before (a store that failed, a muted channel) */
  private heldUntil = new Map<string, number>()
  private loaded?: Promise<void>
  /** adds and cancels, one after another */
  private changes = new SerialQueue()
  private stopped = false
  private refreshedAt = 0

  constructor(private d: SchedulesDeps) {
    this.timer = new SoonestTimer(d.clock, () => void this.tick())
  }

  start(): Promise<void> {
    this.loaded ??= this.load()
    return this.loaded
  }

  private async load(): Promise<void> {
    try {
      this.tasks.load(await this.d.store.load())
    } catch (e: any) {
      this.d.logger.warn('schedules %s could not be read: %s; the tasks there fire once they can be', this.d.store.where, e?.message ?? e)
    }
    this.refreshedAt = this.d.clock.now()
    this.arm()
  }

  // ---- asking, listing, cancelling (the tool, the console, the command) ----

  /** Adds a task of `conversation` held in `channel`; nothing is stored when it is refused. One change at a time: the bounds hold. */
  add(o: NewTask): Promise<{ id: string; next: string } | ScheduleError> {
    return this.changes.run(() => this.added(o))
  }

  private async added(o: NewTask): Promise<{ id: string; next: string } | ScheduleError> {
    await this.start()
    const { config, zone, random } = this.d
    const task = newTask(o, { config, zone, random, now: this.d.clock.now(), index: this.tasks, proactive: this.d.proactive() })
    if (!('rev' in task)) return task
    try {
      await this.d.store.add(task)
    } catch (e: any) {
      return { name: 'NotStored', message: `the task could not be stored (${e?.message ?? e}); nothing was scheduled` }
    }
    this.tasks.put(task)
    this.arm(task.next)
    return { id: task.id, next: localTime(task.next, zone) }
  }

  /** The open tasks of `conversation`, soonest first. */
  openOf(conversation: string): Task[] {
    return this.tasks.openOf(conversation)
  }

  /** Every open task, soonest first (the console). */
  all(): Task[] {
    return this.tasks.all()
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id)
  }

  view(t: Task): TaskView {
    const who = { id: t.who.id, name: t.who.name ?? t.who.id }
    return { id: t.id, next: localTime(t.next, this.d.zone), note: t.note, ...t.cron ? { cron: t.cron } : {}, who }
  }

  /** Removes task `id`; NotFound when it is gone (fired, cancelled, or never was). Who may is the caller's check. */
  cancel(id: string): Promise<{ ok: true } | ScheduleError> {
    return this.changes.run(() => this.cancelled(id))
  }

  private async cancelled(id: string): Promise<{ ok: true } | ScheduleError> {
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
    if (at !== undefined) return this.timer.sooner(at)
    let soonest = this.tasks.soonest()?.at ?? Infinity
    for (const until of this.heldUntil.values()) if (until < soonest) soonest = until
    if (this.d.shared) soonest = Math.min(soonest, this.refreshedAt + REFRESH_MS)
    this.timer.reset(soonest)
  }

  private async tick(): Promise<void> {
    if (this.stopped) return
    let now = this.d.clock.now()
    if (this.d.shared && now >= this.refreshedAt + REFRESH_MS) await this.refresh()
    now = this.d.clock.now()
    const due: Task[] = []
    const later: Task[] = []
    for (let top = this.tasks.soonest(); top && top.at <= now; top = this.tasks.soonest()) {
      this.tasks.popSoonest()
      const task = this.tasks.get(top.id)!
      const held = this.heldUntil.get(task.id)
      if (held !== undefined && held > now) later.push(task)
      else due.push(task)
    }
    // a held task stays due: back into the heap, looked at again when its hold ends
    for (const t of later) this.tasks.requeue(t)
    await Promise.all(due.map(t => this.fire(t, now)))
    this.arm()
  }

  /** Reads a shared store again: tasks another instance added, fired or cancelled. */
  private async refresh(): Promise<void> {
    this.refreshedAt = this.d.clock.now()
    try {
      const stored = await this.d.store.load()
      if (!this.stopped) this.tasks.load(stored)
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
      logger.warn('schedule #%s of %s: the firing could not be stored (%s); trying again in a minute',
        task.id, task.conversation, e?.message ?? e)
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
    if (after) this.tasks.put(after)
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
      if (!this.stopped) this.tasks.put(back)
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
    await this.changes.idle()
    await Promise.all(this.firing.values())
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.timer.cancel()
    await this.loaded
    await this.changes.idle()
    await Promise.all(this.firing.values())
    // firings whose turn never started fire at the next start, late
    const waiting = [...this.flights]
    this.flights.clear()
    for (const f of waiting) await this.putBack(f)
    await this.d.store.stop()
  }
}
