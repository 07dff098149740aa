// The system prompt of a runtime as each of its conversations sees it (SPEC §22: a private chat's
// memory only in that chat): made of the profile, the schemes, the tool sources and the parts'
// shares, and kept while those stay the same (SPEC §16 "Stable first").
import type { ProfileConfig } from '../config/types'
import type { TurnChat } from '../contract/tool'
import { chatOf } from '../contract/turn-scope'
import type { RuntimePart } from '../part/runtime-part'
import type { ResourceCenter } from '../resources/center'
import { promptOptions, SystemPromptCache, whereParagraph } from './prompt/system-prompt'
import type { Place } from './prompt/chat-place'

/** What a runtime's prompt is made of. */
export interface PromptSources {
  profile: ProfileConfig
  bot: string
  botName?: string
  resources: ResourceCenter
  /** one line per source of the tools found with tool_search (SPEC §18); undefined when they are few */
  toolSources(): string | undefined
  parts: readonly RuntimePart[]
}

export class RuntimePrompt {
  private cache = new SystemPromptCache()

  constructor(private sources: PromptSources) {}

  /**
   * As conversation `key` sees it (in `turnChat`, a cross-mode turn's chat; at `place`, as its facts
   * tell); without a key, as any group does.
   */
  seenBy(key?: string, turnChat?: TurnChat, place?: Place): string {
    const { profile, bot, botName, resources, parts } = this.sources
    const chat = turnChat ?? (key === undefined ? undefined : chatOf(key))
    const scope = { ...key !== undefined ? { conversation: key } : {}, ...chat ? { chat } : {} }
    const toolSources = this.sources.toolSources()
    const shared = this.cache.get(promptOptions({ profile, schemes: resources.schemes(), toolSources, parts, scope }))
    return `${shared}\n\n${whereParagraph({ bot, botName, place })}`
  }
}
