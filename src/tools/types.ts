// The narrow views a tool receives (SPEC §9): the runtime it serves and the host that sends for
// it, and the factories other plugins register. The tool contract itself is contract/tool.ts.
// Nothing here knows the concrete runtime or Koishi.
import type { CodemodeLimits, ProfileConfig, TypingConfig } from '../config/types'
import type { MediaNode } from '../contract/tool'
import type { ModelHandle } from '../model/provider'
import type { ResourceCenter } from '../resources/center'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Logger } from '../util/logger'
import type { ReadScope, SchemeHandler } from '../resources/types'
import type { Tool, WaitDeclaration } from '../contract/tool'
import type { SendRefs } from './send-refs'
import type { OutboundElements, OwnSends } from './outbound'

/** Returns undefined when the scheme does not apply to this runtime (e.g. http when disabled). */
export type SchemeFactory = (runtime: RuntimeView) => SchemeHandler | undefined
/** Returns undefined when the tool does not apply to this runtime (e.g. an MCP server its profile does not list). */
export type ToolFactory = (runtime: RuntimeView) => Tool | undefined

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
  /** budgets.timezone: the zone of kotodama's one day ('' : the host's) */
  readonly timezone: string
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
  /** what a message to `target` may point at: quotes, mentions, faces (SPEC §19); absent: unchecked */
  refs?(target: SendTarget): SendRefs
  /** the bot's own sends to `target`, with their times (unsending, SPEC §23); absent: none known */
  own?(target: SendTarget): OwnSends
  /** the elements parts serve (`<sticker>`, `<voice>`: outbound.ts); absent: none */
  elements?: OutboundElements
  deliver(target: SendTarget, content: string): Promise<string[]>
  showTyping(target: SendTarget): void
  /** Sends of one conversation never interleave. */
  serialize<T>(task: () => Promise<T>): Promise<T>
  /** Resolves media for sending: asset://, artifact://, local://, workspace://, and http(s):// under read's rules. */
  resolveMedia(url: string, signal?: AbortSignal, scope?: ReadScope): Promise<ResolvedMedia>
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  now(): number
}
