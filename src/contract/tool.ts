// The tool contract shared by built-ins and tools other plugins register (SPEC §9): a tool, the
// context of one call, the turn it serves and what the exit offers it. The lowest file that
// knows tools: the exit, the model adapter and tool search read it; nothing here knows the runtime.
import type { ZodType } from 'zod'
import type { Schema, ToolResultPart } from 'ai'
import type { Lifetime } from '../config/types'
import type { OwnerBook, TurnAuthor } from './authors'

/** The media of an explicit node in a tool's result (SPEC §7 step 4): base64 bytes and their type. */
export interface MediaNode {
  data: string            // base64
  mediaType: string
  /** where the bytes came from, when the node says so (read file results) */
  url?: string
  filename?: string
  width?: number
  height?: number
}

export type ToolResultOutput = ToolResultPart['output']

export interface ToolCallContext {
  /** The id of the model's tool call, or a synthetic one for calls from a program. */
  callId: string
  /** true when called from a codemode program: raw results, no paging, never a closing action. */
  fromProgram: boolean
  signal: AbortSignal
  turn: TurnState
  /** How many messages of this call are delivered so far (send_message; the console's live view). */
  progress?(delivered: number): void
  /**
   * Counts one paid request (`what`: a vision question, an embedding, speech, a picture, a web
   * search) before the tool makes it; throws `PaidCallLimit` (paid-calls.ts) past codemode.maxPaidCalls.
   * Set by codemode for its program's calls; absent: not counted (SPEC §22).
   */
  paid?(what: string): void
}

/** What the unified exit offers a tool that presents its own result (SPEC §7). */
export interface ExitKit {
  /** Stores one media node as an attachment; returns the line that stands for it. */
  attach(node: MediaNode, lifetime?: Lifetime): Promise<string>
  /** Text (or, without text, the JSON value) as the model sees it: past the budget archived and paged. */
  budgeted(text: string | undefined, json?: unknown): Promise<ToolResultOutput>
  /** The default presentation: a string as itself, any other value as JSON with its media attached. */
  plain(value: unknown): Promise<ToolResultOutput>
}

/** How the turn and codemode check an input: zod's `safeParse` shape. */
export interface InputCheck<I> {
  safeParse(value: unknown): ReturnType<ZodType<I>['safeParse']>
  safeParseAsync(value: unknown): ReturnType<ZodType<I>['safeParseAsync']>
}

/** A zod schema, or a JSON Schema (the AI SDK's `jsonSchema`) that checks like one (MCP tools). */
export type ToolInputSchema<I> = ZodType<I> | (Schema<I> & InputCheck<I>)

export interface Tool<I = any, O = any> {
  description: string
  inputSchema: ToolInputSchema<I>
  execute(input: I, ctx: ToolCallContext): Promise<O>
  /** Converts the raw result for the model before the unified exit (SPEC §7 step 1), as in the AI SDK. */
  toModelOutput?(output: O, input: I): ToolResultOutput | Promise<ToolResultOutput>
  /** Presents the raw result through the exit's services; wins over toModelOutput. */
  present?(output: O, input: I, exit: ExitKit): Promise<ToolResultOutput>
  /** How codemode declares the tool to programs: its raw result type, input fields programs may not pass. */
  program?: { output?: string; omit?: string[] }
  /** Where it comes from, for the system prompt's line per source when tools are searched (SPEC §18). */
  origin?: { server: string; about?: string }
}

export interface WaitDeclaration {
  seconds?: number
  messages?: number
}

/**
 * The chat a turn speaks in (SPEC §22 "What one chat learns stays in that chat"): what it may see,
 * and where what it writes belongs. A private chat's files, notes, artifacts and assets are shown
 * only there.
 */
export interface TurnChat {
  /** the channel key ('group:123', 'private:alice') */
  readonly channel: string
  /** a private chat with `user` */
  readonly direct: boolean
  readonly user?: string
}

/** The per-turn state tools read and write; owned by the turn loop. */
export interface TurnState {
  readonly number: number
  /** When the wake-up that started this turn happened (ms). */
  readonly wokeAt: number
  /** The key of the conversation whose turn this is (search and history:// see only what it may, SPEC §17). */
  readonly conversation?: string
  /**
   * The chat this turn is in: channel mode, the conversation's channel; cross mode, the channel
   * of the facts that woke it. Absent: no single chat (a cross-mode turn woken in several channels,
   * or none): nothing private is shown and nothing written is private.
   */
  readonly chat?: TurnChat
  /**
   * The authors of the facts that woke this turn (SPEC §22): who may ask for an act that needs a
   * role (src/trust/permission.ts). Empty or absent: no person woke it (a wait, an idle wake).
   */
  readonly authors?: readonly TurnAuthor[]
  /** Who the bot owner's people are; absent outside a runtime (then no one is). */
  readonly owners?: OwnerBook
  /** Elements of parts delivered this turn, by tag: send_message holds each capped one to its part's cap (`stickers.maxPerTurn`, SPEC §19). */
  elementsSent?: Record<string, number>
  /** keys elements marked in this turn (one poke per person, SPEC §23) */
  outboundMarks?: Set<string>
  /** Messages delivered since the last step was stored: id → when (ms); the step keeps them (an unsend after a restart, SPEC §23). */
  sentAt?: Record<string, number>
  /** When the last message of this turn went out (ms); typing credit counts from here. */
  lastSpokeAt?: number
  /** The last wait() call of the turn wins; undefined clears. */
  wait?: WaitDeclaration | null
  /**
   * Turns in a row that no person's message woke, this one included, and `timing.maxSelfWakes`:
   * at the limit `wait` is refused until someone writes (SPEC §22). Absent outside a conversation.
   */
  selfWakes?(): { inRow: number; max: number }
  /**
   * Calls `fn` when a message arrives that the mind should stop typing for (SPEC §15 `yield`);
   * returns the unsubscribe. Absent outside a conversation.
   */
  watchArrivals?(fn: () => void): () => void
  /**
   * Searched tools this turn loaded (found by tool_search, or called by name), in that order: each
   * step declares them after the catalog's own (SPEC §18).
   */
  loaded?: string[]
}

