// How a runtime makes one of its conversations: the conversation's dependencies, closed over the
// runtime's shared pieces (stores, models, parts, tools, channel memory), so runtime.ts only composes.
import type { Place } from './prompt/chat-place'
import type { VisionCache } from '../model/vision'
import type { ModelCalls } from '../model/calls'
import type { ModelHandle } from '../model/provider'
import type { RuntimePart } from '../part/runtime-part'
import { openTurn, tellAppended } from '../part/turn-hooks'
import type { ResourceCenter } from '../resources/center'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { SearchPlan } from '../tool-search'
import type { ProgramRunner } from '../tools/codemode'
import type { RuntimeView } from '../tools/types'
import type { UsageBook } from '../usage/book'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { HistorySide } from '../history/sides'
import type { ChannelMemory } from './channel-memory'
import { Conversation } from './conversation'
import type { WaitIndex } from './durable-waits'
import type { Extensions } from './extensions'
import type { JudgeCall } from './judge-call'
import type { Platform } from './types'
import type { ImageLoader } from './request/image-loader'
import { toolCatalog } from './tool-catalog'
import { chatOf } from '../contract/turn-scope'
import { createToolHost, type HostSide } from './tool-host'
import type { OutboundElements } from '../tools/outbound'
import type { CodemodeLimits } from '../config/types'
import type { TurnChat } from '../contract/tool'
import type { OwnerBook } from '../contract/authors'
import { payerOf } from '../contract/budget'
import type { Entry } from '../history/entries'
import { ownSendsIn } from './own-sends'

/** What a runtime shares with each of its conversations. */
export interface ConversationSide {
  view: RuntimeView
  clock: Clock
  platform: Platform
  random(): number
  redact: Redactor
  models: Map<string, ModelHandle>
  extensions: Extensions
  limits: CodemodeLimits
  sandbox: ProgramRunner
  vision: VisionCache
  resources: ResourceCenter
  artifacts: ArtifactStore
  assets: AssetStore
  images: ImageLoader
  channels: ChannelMemory
  usage: UsageBook
  /** counted model calls; the steps' failover port */
  calls: ModelCalls
  waits: WaitIndex
  parts: readonly RuntimePart[]
  /** the elements the parts serve in send_message (`<sticker>`, `<voice>`) */
  elements: OutboundElements
  history(): HistorySide
  registered(): SearchPlan
  /** other plugins' schemes made again when the registry changed */
  syncSchemes(): void
  /** as conversation `key` (in `chat`, for a cross-mode turn) sees it: a private chat's memory only there (SPEC §22) */
  systemPrompt(key: string, chat?: TurnChat, place?: Place): string
  judge?: JudgeCall
  /** the channel's mind may not speak now (SPEC §19) */
  muted(channel: string): boolean
  /** a conversation changed (new entries, a turn ended, a reset) */
  changed(key: string): void
  logged(part: RuntimePart, what: string, e: unknown): void
  /** who the bot owner's people are, and the tools only they trigger (SPEC §22) */
  owners?: OwnerBook
  ownerTools?: ReadonlySet<string>
}

export function makeConversation(side: ConversationSide, key: string): Conversation {
  const { view } = side
  const { profile } = view
  const host: HostSide = {
    profile, bot: view.bot, clock: side.clock, platform: side.platform, random: () => side.random(),
    // a send reads as its conversation does: another chat's asset is not there (SPEC §22)
    media: (url, signal, scope) => side.resources.bytes(url, signal, scope ?? { conversation: key, ...chatScope(key) }),
    channels: side.channels,
    sendFailed: () => side.usage.recordFailedSend(),
    elements: side.elements,
  }
  const partTools = () => side.parts.flatMap(p => [...p.tools?.() ?? []])
  return new Conversation({
    key, profile, timezone: view.timezone, logger: view.logger, clock: side.clock, redact: side.redact,
    store: side.history().open(key),
    stores: { artifacts: side.artifacts, assets: side.assets },
    model: () => side.models.get(profile.model),
    calls: side.calls,
    system: (chat, place) => side.systemPrompt(key, chat, place),
    hostFor: c => createToolHost(host, c),
    toolsFor: toolHost => {
      const catalog = {
        view, extensions: side.extensions, limits: side.limits, vision: side.vision, calls: side.calls, sandbox: side.sandbox,
        registered: side.registered, partTools, ...side.ownerTools ? { ownerOnly: side.ownerTools } : {},
      }
      const tools = toolCatalog(catalog, toolHost)
      return () => {
        side.syncSchemes()
        return tools()
      }
    },
    loadImage: url => side.images.load(url),
    ...(side.judge ? { judge: ({ reason, lines, authors }) => side.judge!(reason, lines, payerOf(key, authors, side.owners)) } : {}),
    beforeTurn: () => openTurn(side.parts, key, side.logged),
    indexed: entries => tellAppended(side.parts, key, entries, side.logged),
    loaded: (entries, channel) => rememberOwnSends(side, view.bot, entries, channel),
    waits: side.waits.portFor(key),
    muted: channel => side.muted(channel),
    changed: () => side.changed(key),
    ...side.owners ? { owners: side.owners } : {},
  })
}

/** The bot's own sends in a loaded history that the platform's unsend window still reaches (SPEC §23: an unsend after a restart). */
function rememberOwnSends(side: ConversationSide, bot: string, entries: readonly Entry[], channel?: string): void {
  const window = side.platform.acts?.(bot)?.unsendWindowMs
  const { sends, unsent } = ownSendsIn(entries, { channel, since: window === undefined ? -Infinity : side.clock.now() - window })
  for (const s of sends) side.channels.rememberSent([s.id], { channel: s.channel, at: s.at })
  const taken = new Set(unsent)
  for (const s of sends) if (taken.has(s.id)) side.channels.markUnsent(s.id, s.channel)
}

function chatScope(key: string) {
  const chat = chatOf(key)
  return chat ? { chat } : {}
}

/** A part's failure is a warning the first time, then a debug line: a part failing on every append must not flood the log. */
export function onceAWarning(logger: Logger, profile: string): ConversationSide['logged'] {
  const warned = new Set<string>()
  return (part, what, e: any) => {
    const key = `${part.name}\u0000${what}`
    const level = warned.has(key) ? 'debug' : 'warn'
    warned.add(key)
    logger[level]('profile %s: %s %s: %s', profile, part.name, what, e?.message ?? e)
  }
}
