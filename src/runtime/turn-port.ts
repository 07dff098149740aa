// What the turn loop needs from its conversation: a small port, so the loop is testable alone and
// the conversation owns its history, its numbering and its request building.
import type { TurnStart } from '../attention/gate'
import type { ProfileConfig } from '../config/types'
import type { MediaStores } from '../exit/store-media'
import type { StepCalls } from '../model/calls'
import type { ModelHandle } from '../model/provider'
import type { SendTarget } from '../tools/types'
import type { Tool, TurnState } from '../contract/tool'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { ModelRequest } from './request/build-request'
import type { Entry, LiveStep } from '../history/entries'

/** Why a turn starts (attention/gate.ts). */
export type TurnRequest = TurnStart

export interface TurnPort {
  readonly key: string
  readonly profile: ProfileConfig
  /** Aborted when the conversation stops: no new model call, no new step. */
  readonly signal: AbortSignal
  /**
   * The signal direct tool calls get. Stopping does not abort them: a send in progress is
   * delivered (SPEC §2); a program's own calls get the program's signal instead.
   */
  readonly toolSignal: AbortSignal
  readonly logger: Logger
  readonly clock: Clock
  /** masks configured secrets in tool results and errors before the model sees them */
  readonly redact: Redactor
  /** where the exit stores media and archives */
  readonly stores: MediaStores
  /** Numbers the turn and stores its opening entries. */
  beginTurn(req: TurnRequest): TurnState
  /** After the last step: facts the turn never saw, the wait it declared. */
  endTurn(state: TurnState): void
  /** Facts that arrived during the turn enter the history (seen at the next step). */
  flushInbox(): void
  /** `maxChars`: a smaller budget than context.maxChars, from the model's context size */
  buildRequest(maxChars?: number): Promise<ModelRequest>
  append(entries: Entry[]): Promise<void>
  /** The step being carried out, for the console; undefined once it is stored. */
  showStep?(live: LiveStep | undefined): void
  /** The `once` attachments of a request whose response was persisted count as shown. */
  markShown(ids: string[]): void
  model(): ModelHandle | undefined
  /** The runtime's counted model calls (failover, health, the usage book). */
  calls(): StepCalls
  system(): string
  tools(): Map<string, Tool>
  /** Where a stray text goes under `strayText: send`. */
  lastTarget(): SendTarget | undefined
}
