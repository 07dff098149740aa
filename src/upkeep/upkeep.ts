// Upkeep of one runtime (SPEC §26): its book of proposals, where it is, the daily timer, a run at
// a time (the command's and the console's join the one under way), and the owner's decisions.
import type { Clock, Timer } from '../util/clock'
import type { Logger } from '../util/logger'
import { dayAround } from '../util/day'
import { applyProposal, recoverProposal, type ApplyDeps } from './apply'
import type { UpkeepConfig } from './config'
import { lastOccurrence, nextOccurrence } from './daily'
import type { Proposal } from './proposal'
import { ProposalBook } from './proposal-book'
import { decideIn, type Decision, type DecideResult } from './decision'
import type { ProposeDeps } from './propose-tool'
import { runAll, type RunAllDeps } from './run-all'
import type { RunReport } from './run-report'
import { StateFile, type UpkeepState } from './state'

const DAY = 86_400_000

export type { Decision, DecideResult } from './decision'

export interface UpkeepDeps {
  config: UpkeepConfig
  home: string
  zone: string
  clock: Clock
  logger: Logger
  /** what a run needs of the runtime, made when a run starts; undefined: upkeep cannot run (says why) */
  runDeps(signal: AbortSignal): Promise<Omit<RunAllDeps, 'now' | 'save' | 'propose'> | string>
  /** how proposals are written, read back and checked (memory's write and files) */
  apply: Omit<ApplyDeps, 'book' | 'now'>
  /** for the placement of a proposal (memory's guard) */
  visible: ProposeDeps['visible']
  platform: string
}

export class Upkeep {
  readonly book: ProposalBook
  private stateFile: StateFile
  private timer?: Timer
  private running?: Promise<RunReport>
  private current?: RunReport
  private abort = new AbortController()
  private stopped = false
  /** a test's seam: runs after a change's write, before the book records it (a crash there) */
  readonly hooks: { written?(p: Proposal): Promise<void> } = {}

  constructor(private d: UpkeepDeps) {
    this.book = new ProposalBook(d.home, d.logger)
    this.stateFile = new StateFile(d.home, d.logger)
  }

  get config(): UpkeepConfig {
    return this.d.config
  }

  /** Reads the book and where it is; finishes what a crash left applying; a day missed while down runs now. */
  async start(): Promise<void> {
    const now = this.d.clock.now()
    await this.book.load(now)
    for (const p of this.book.all().filter(x => x.state === 'applying')) await recoverProposal(this.applyDeps(), p)
    const state = await this.stateFile.load(now)
    // a runtime that never ran upkeep does not run at its first start; it counts from a day before it
    // (the message that made the runtime is in; a year of history before upkeep was turned on is not)
    if (!state) await this.stateFile.save({ since: now - DAY, through: {}, runs: [] })
    else if ((state.lastRun ?? state.since) < lastOccurrence(now, this.d.config.at, this.d.zone)) void this.run('missed').catch(() => {})
    this.arm()
  }

  /** The run under way, or a new one; resolves with what it did. */
  run(reason: string): Promise<RunReport> {
    if (this.stopped) return Promise.reject(new Error('upkeep stopped'))
    this.running ??= this.runNow(reason).finally(() => { this.running = undefined })
    return this.running
  }

  /** The run under way (why, since when), if one is. */
  underway(): { reason: string; startedAt: number } | undefined {
    return this.current && { reason: this.current.reason, startedAt: this.current.startedAt }
  }

  /** The proposals, oldest first. */
  proposals(): Proposal[] {
    return this.book.all()
  }

  pending(): number {
    return this.book.all().filter(p => p.state === 'pending').length
  }

  /** The last runs, newest last. */
  runs(): RunReport[] {
    return this.stateFile.state?.runs ?? []
  }

  /** Accepts (applies as write would) or rejects a pending proposal; a failed one may be accepted again. */
  decide(id: string, decision: Decision, by: string): Promise<DecideResult> {
    return decideIn(this.book, id, decision, { by, now: this.d.clock.now(), accept: (p, who) => applyProposal(this.applyDeps(), p, who) })
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.timer?.cancel()
    this.abort.abort()
    await this.running?.catch(() => {})
    await this.book.stop()
  }

  private arm(): void {
    if (this.stopped) return
    const now = this.d.clock.now()
    const at = nextOccurrence(now, this.d.config.at, this.d.zone)
    this.timer = this.d.clock.setTimeout(() => {
      void this.run('schedule').catch(() => {})
      this.arm()
    }, at - now).unref()
  }

  private applyDeps(): ApplyDeps {
    return { ...this.d.apply, book: this.book, now: () => this.d.clock.now(), written: p => this.hooks.written?.(p) ?? Promise.resolve() }
  }

  private async runNow(reason: string): Promise<RunReport> {
    const clock = this.d.clock
    const state: UpkeepState = this.stateFile.state ?? { since: clock.now() - DAY, through: {}, runs: [] }
    const report: RunReport = {
      reason, startedAt: clock.now(), endedAt: 0, conversations: 0, messages: 0, requests: 0, promptTokens: 0, cachedTokens: 0, proposed: 0, applied: 0,
    }
    state.lastRun = report.startedAt
    this.current = report
    try {
      await this.runIn(state, report)
    } finally {
      this.current = undefined
    }
    return report
  }

  private async runIn(state: UpkeepState, report: RunReport): Promise<void> {
    const clock = this.d.clock
    const deps = await this.d.runDeps(this.abort.signal)
    if (typeof deps === 'string') {
      report.stopped = 'failed'
      report.why = deps
    } else {
      await runAll({ ...deps, now: () => clock.now(), save: s => this.stateFile.save(s), propose: this.proposeDeps(report) }, state, report)
    }
    report.endedAt = clock.now()
    state.runs.push(report)
    await this.stateFile.save(state).catch(e => this.d.logger.warn('upkeep: %s could not be written: %s', this.stateFile.path, e?.message ?? e))
    this.d.logger.info('upkeep (%s): %d conversations, %d new messages, %d requests, %d prompt tokens; %d changes proposed, %d applied%s',
      report.reason, report.conversations, report.messages, report.requests, report.promptTokens, report.proposed, report.applied,
      report.stopped ? `; stopped (${report.stopped}${report.why ? `: ${report.why}` : ''})` : '')
  }

  private proposeDeps(report: RunReport): ProposeDeps {
    const clock = this.d.clock
    return {
      book: this.book, platform: this.d.platform, visible: this.d.visible, textOf: this.d.apply.textOf,
      auto: () => this.d.config.review === 'auto',
      left: () => this.d.config.maxChanges - this.book.madeSince(dayAround(clock.now(), this.d.zone).start),
      now: () => clock.now(),
      apply: p => applyProposal(this.applyDeps(), p, 'auto'),
      counted: what => { report[what]++ },
    }
  }
}
