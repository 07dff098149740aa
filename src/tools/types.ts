// The tool contract shared by built-ins and tools other plugins register (SPEC §9).
import type { ZodType } from 'zod'
import type { ToolResultPart } from 'ai'

export type ToolResultOutput = ToolResultPart['output']

export interface ToolCallContext {
  /** The id of the model's tool call, or a synthetic one for calls from a program. */
  callId: string
  /** true when called from a codemode program: raw results, no paging, never a closing action. */
  fromProgram: boolean
  signal: AbortSignal
  turn: TurnState
}

export interface Tool<I = any, O = any> {
  description: string
  inputSchema: ZodType<I>
  execute(input: I, ctx: ToolCallContext): Promise<O>
  /** Converts the raw result for the model before the unified exit (SPEC §7 step 1). */
  toModelOutput?(output: O, input: I): ToolResultOutput | Promise<ToolResultOutput>
}

/** Where a tool may be called from (SPEC §8). */
export type ToolPlacement = 'direct' | 'program' | 'both'

export interface ToolSpec {
  name: string
  tool: Tool
  placement: ToolPlacement
}

export interface SendTarget {
  bot: string
  channel: string
  guildId?: string
}

export interface WaitDeclaration {
  seconds?: number
  messages?: number
}

/** The per-turn state tools read and write; owned by the turn loop. */
export interface TurnState {
  readonly number: number
  /** When the wake-up that started this turn happened (ms). */
  readonly wokeAt: number
  /** When the last message of this turn went out (ms); typing credit counts from here. */
  lastSpokeAt?: number
  /** The last wait() call of the turn wins; undefined clears. */
  wait?: WaitDeclaration | null
}

/** Media bytes a send resolves from a resource URL. */
export interface ResolvedMedia {
  data: Buffer
  mediaType: string
  filename?: string
}

/** What the built-in tools need from the conversation they serve; the runtime implements it. */
export interface ToolHost {
  readonly mode: 'channel' | 'cross'
  readonly bot: string
  readonly typing: import('../config/types').TypingConfig
  random(): number
  /** Channel mode: the conversation's own channel. */
  ownTarget(): SendTarget | undefined
  /** Checks a cross-mode target against the claims; returns a target or why it is refused. */
  resolveTarget(target: { channel: string; bot?: string }): SendTarget | { error: string }
  isOnline(bot: string): boolean
  deliver(target: SendTarget, content: string): Promise<string[]>
  showTyping(target: SendTarget): void
  /** Sends of one conversation never interleave. */
  serialize<T>(task: () => Promise<T>): Promise<T>
  /** Resolves asset://, artifact://, local://, workspace:// media for sending. */
  resolveMedia(url: string, signal?: AbortSignal): Promise<ResolvedMedia>
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  now(): number
}
