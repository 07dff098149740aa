// What a runtime is made with (the Koishi service passes the plugin's shared pieces), and where its home is.
import { join } from 'node:path'
import type { CodemodeLimits, ProfileConfig } from '../config/types'
import type { HistoryTable } from '../history/table'
import type { PartRecords } from '../part/records'
import type { ModelHealth } from '../model/failover'
import type { ModelHandle } from '../model/provider'
import type { VisionCache } from '../model/vision'
import type { TextCache } from '../resources/text'
import type { ProgramRunner } from '../tools/codemode'
import type { Clock } from '../util/clock'
import type { DescriptorBudget } from '../util/descriptor-budget'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import { safeName } from '../util/safe-name'
import type { Extensions } from './extensions'
import type { LoadedConversations } from './loaded-conversations'
import type { Platform } from './types'
import type { OwnerBook } from '../contract/authors'
import type { BudgetGate } from '../contract/budget'
import { platformOf, selfIdOf } from '../claims/bot-id'

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
  /** budgets.timezone: the zone of kotodama's one day (SPEC §22); absent or '': the host's */
  timezone?: string
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
  /** storage: database — this runtime's tables of its parts (schedules); without, they keep files in the home */
  records?: PartRecords
  /** the bot owner's people (`trust.owners`, Koishi authority) and the tools only they trigger (`trust.tools`): SPEC §22 */
  owners?: OwnerBook
  ownerTools?: ReadonlySet<string>
  /** the plugin's budget book as this runtime pays into it (SPEC §22); absent: no budget */
  budget?: BudgetGate
}

export function runtimeHome(dataDir: string, profileId: string, bot: string): string {
  return join(dataDir, safeName(profileId), safeName(platformOf(bot)), safeName(selfIdOf(bot)))
}
