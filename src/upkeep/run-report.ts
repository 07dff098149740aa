// What one upkeep run did (SPEC §26): the command's answer, the console's list, the log.

/** Why a run ended before every conversation's new messages were looked at ('limit': maxChanges for today). */
export type RunStop = 'budget' | 'stopped' | 'limit' | 'failed'

export interface RunReport {
  /** 'schedule', 'missed' (a day missed while down), 'command', 'console' */
  reason: string
  startedAt: number
  endedAt: number
  /** conversations looked at, and the messages they had that were new */
  conversations: number
  messages: number
  /** model requests and their prompt tokens (cached ones among them) */
  requests: number
  promptTokens: number
  cachedTokens: number
  proposed: number
  applied: number
  /** new messages left unread because a conversation's run reached upkeep.maxTokens */
  skipped?: number
  /** absent: it ran to the end */
  stopped?: RunStop
  /** the model's failure or the budget that held it, in its words */
  why?: string
}
