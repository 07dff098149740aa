// What a conversation is given by its runtime (conversation-wiring.ts makes it).
import type { ProfileConfig } from '../config/types'
import type { Tool, TurnChat } from '../contract/tool'
import type { OwnerBook, TurnAuthor } from '../contract/authors'
import type { MediaStores } from '../exit/store-media'
import type { HistoryBackend } from '../history/backend'
import type { Entry } from '../history/entries'
import type { Verdict } from '../attention/judge'
import type { StepCalls } from '../model/calls'
import type { ModelHandle } from '../model/provider'
import type { SendTarget, ToolHost } from '../tools/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { WaitIndexPort } from './durable-waits'
import type { HostConversation } from './tool-host'
import type { LoadedImage } from './request/projection'
import type { Place } from './prompt/chat-place'

export interface ConversationDeps {
  key: string
  profile: ProfileConfig
  /** budgets.timezone: the zone of every time the model reads ('' : the host's) */
  timezone: string
  logger: Logger
  clock: Clock
  redact: Redactor
  store: HistoryBackend
  /** where the unified exit stores media and archives */
  stores: MediaStores
  model(): ModelHandle | undefined
  /** the runtime's counted model calls: fallbacks, their health, the usage book */
  calls?: StepCalls
  /**
   * `chat`: the turn's chat (cross mode: a private chat sees its own memory, SPEC §22); `place`:
   * where the conversation is, as its facts tell (SPEC §27)
   */
  system(chat?: TurnChat, place?: Place): string
  /** The conversation's direct tools, made once for its tool host (rebuilt inside when extensions change). */
  toolsFor(host: ToolHost): () => Map<string, Tool>
  /** The runtime's side of the tool host; the conversation adds its channel and send queue. */
  hostFor(conv: HostConversation): ToolHost
  /** image bytes for projection */
  loadImage(url: string): Promise<LoadedImage>
  /** Runs before each turn (the memory cache looks for the owner's changes); never throws. */
  /** resolves with the parts' lines of the turn's opening note */
  beforeTurn?(): Promise<string[]>
  /** told after entries were appended, a turn ended or the history was reset (the console page) */
  changed?(): void
  /** told the entries appended, as they are appended (recall indexes what was said, SPEC §17) */
  indexed?(entries: Entry[]): void
  /** told the entries loaded, and the channel a send without a target went to (the bot's own sends, SPEC §23) */
  loaded?(entries: readonly Entry[], channel?: string): void
  /** the runtime's index of pending waits, for this conversation's key (SPEC §15: durable) */
  waits?: WaitIndexPort
  /** the channel's mind may not speak now (a platform ban, the owner's pause: SPEC §19) */
  muted?(channel: string): boolean
  /** asks wake.judge whether to speak (SPEC §15); absent when none is configured */
  judge?(o: { reason: string; lines: string[]; authors: readonly TurnAuthor[] }): Promise<Verdict>
  /** who the bot owner's people are: each turn carries it for the permission check (SPEC §22) */
  owners?: OwnerBook
}
