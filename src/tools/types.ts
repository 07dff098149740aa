// The tool contract shared by built-ins and tools other plugins register (SPEC §9), and the
// narrow views a tool receives: the runtime it serves, the host that sends for it, the exit
// that presents its result. Nothing here knows the concrete runtime or Koishi.
import type { ZodType } from 'zod'
import type { Schema, ToolResultPart } from 'ai'
import type { CodemodeLimits, Lifetime, ProfileConfig, TypingConfig } from '../config/types'
import type { MediaNode } from '../exit/media-nodes'
import type { ModelHandle } from '../model/provider'
import type { ResourceCenter } from '../resources/center'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Logger } from '../util/logger'

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

/**
 * The runtime as tools and scheme handlers see it (`registerTool`/`registerScheme` factories).
 * Model handles carry no API key.
 */
export interface RuntimeView {
  readonly profile: ProfileConfig
  /** 'platform:selfId' */
  readonly bot: string
  /** the runtime home folder */
  readonly home: string
  readonly logger: Logger
  /** the plugin's codemode quotas */
  readonly limits: CodemodeLimits
  readonly resources: ResourceCenter
  readonly artifacts: ArtifactStore
  readonly assets: AssetStore
  /** A configured model by id. */
  model(id: string): ModelHandle | undefined
}

export interface SendTarget {
  bot: string
  channel: string
  guildId?: string
  /** the platform's own channel id, when it is not the key's */
  rawChannel?: string
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
  /** The key of the conversation whose turn this is (search and history:// see only what it may, SPEC §17). */
  readonly conversation?: string
  /** When the last message of this turn went out (ms); typing credit counts from here. */
  lastSpokeAt?: number
  /** The last wait() call of the turn wins; undefined clears. */
  wait?: WaitDeclaration | null
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

/** Media bytes a send resolves from a resource URL. */
export interface ResolvedMedia {
  data: Buffer
  mediaType: string
  filename?: string
}

/** What send_message needs from the conversation it serves; the runtime implements it. */
export interface ToolHost {
  readonly mode: 'channel' | 'cross'
  readonly bot: string
  readonly typing: TypingConfig
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
