import type { WakeConfig } from '../config/types'
import type { Fact } from '../history/entries'

/** Decides whether a fact wakes the mind; returns the reason, or undefined to just store it. */
export interface WakeEngine {
  judge(fact: Fact): string | undefined
}

export interface WakeEngineContext {
  bot: string
  config: WakeConfig
  /** Whether a message id was sent by this bot (quotes of the bot's messages wake it). */
  sentByBot(messageId: string): boolean
}

export type WakeEngineFactory = (ctx: WakeEngineContext) => WakeEngine
