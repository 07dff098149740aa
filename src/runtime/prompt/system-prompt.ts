// The system prompt: the persona, then the generated protocol (SPEC §3), whose prose is protocol.md,
// then the parts' paragraphs of it and their sections (memory's, SPEC §13), then where the
// conversation is (SPEC §27). Nothing in it changes with the clock or per request (SPEC §16 "Stable
// first"): a server reuses it from its prompt cache until memory changes. The time goes into the
// history instead, as each turn's opening line (turn-line.ts). All but the last paragraph is the
// same for every chat of the runtime, so one cached text serves them all.
import { prose } from '../../util/prose'
import type { PromptShare, RuntimePart } from '../../part/runtime-part'
import type { ProfileConfig } from '../../config/types'
import type { ReadScope } from '../../resources/types'
import PROTOCOL from './protocol.md'
import { selfIdOf } from '../../claims/bot-id'
import { displayName, shownId } from '../../util/transcript-text'
import type { Place } from './chat-place'

export interface PromptOptions {
  persona: string
  mode: 'channel' | 'cross'
  schemes: string[]
  codemode: boolean
  /** read is a direct tool (always, unless codemode moves it into the sandbox) */
  readDirect: boolean
  imageInput: boolean
  visionModel: boolean
  /** tools are found with tool_search (SPEC §18): one line per source of them */
  toolSources?: string
  /** the runtime's parts' shares (memory, recall, …): their paragraphs and sections in part order */
  parts?: PromptShare[]
}

/** The part every chat of the runtime shares. */
export function systemPrompt(o: PromptOptions): string {
  const parts = o.parts ?? []
  const protocol = prose(PROTOCOL, {
    cross: o.mode === 'cross', vision: o.visionModel, imageInput: o.imageInput, codemode: o.codemode,
    toolSearch: !!o.toolSources, searchCode: !!o.toolSources && o.codemode,
  }, {
    schemes: o.schemes.join(', '),
    readCall: o.readDirect ? 'read({url})' : 'tools.read({url}) inside a codemode program',
    toolSources: o.toolSources ?? '',
  })
  return [o.persona.trim(), protocol, ...parts.map(p => p.protocol?.trim()), ...parts.map(p => p.section)].filter(Boolean).join('\n\n')
}

/** Who the bot is and where this conversation is: the prompt's last paragraph. */
export interface Whereabouts {
  /** 'platform:selfId' */
  bot: string
  botName?: string
  place?: Place
}

export function whereParagraph(w: Whereabouts): string {
  const selfId = selfIdOf(w.bot)
  const name = w.botName ? JSON.stringify(displayName(w.botName, selfId)) : `bot ${w.bot}`
  const you = `You are ${name} (user id ${shownId(selfId)}; <at id="${selfId}"/> mentions you)`
  return `## Where you are\n${you}${w.place ? ` ${placeOf(w.place)}` : ''}.`
}

function placeOf(p: Place): string {
  if (p.kind === 'cross') return 'in the chats whose [channel] headers you see'
  if (p.kind === 'group') return `in a group chat${p.name ? ` named ${JSON.stringify(p.name)}` : ''} (${p.channel}): many people read what you send`
  const who = p.partner ? `${p.partner.name ? `${p.partner.name} ` : ''}(user id ${shownId(p.partner.id)})` : 'one person'
  return `in a private chat with ${who}: only the two of you read it`
}

/** A runtime's prompt options: its profile, its schemes and tool sources, its parts' shares. */
export function promptOptions(o: {
  profile: ProfileConfig; schemes: string[]; toolSources?: string; parts: readonly RuntimePart[]; scope?: ReadScope
}): PromptOptions {
  const scope = o.scope ?? {}
  const p = o.profile
  return {
    persona: p.persona, mode: p.mode, schemes: o.schemes, codemode: p.codemode.enabled,
    imageInput: p.attachment.imageInput, readDirect: !p.codemode.enabled || p.codemode.direct.includes('read'),
    visionModel: !!p.attachment.visionModel, toolSources: o.toolSources,
    parts: o.parts.flatMap((part): PromptShare[] => { const share = part.prompt?.(scope); return share ? [share] : [] }),
  }
}

/** prompts kept at once: every group's, and the private chats' with memory of their own (SPEC §22) */
const KEPT_PROMPTS = 16

/**
 * The prompt is asked for on every step and changes only with its inputs (memory's section when
 * memory changes, the schemes and tool sources when other plugins come and go): made again only then.
 * A few are kept, the latest first: the chats that see memory of their own each have theirs, and
 * every other chat shares one.
 */
export class SystemPromptCache {
  private kept: { key: unknown[]; text: string }[] = []

  get(o: PromptOptions): string {
    const key = [o.persona, o.mode, o.codemode, o.readDirect, o.imageInput, o.visionModel, o.toolSources, o.schemes.join('\n')]
    for (const p of o.parts ?? []) key.push(p.section, p.protocol)
    const at = this.kept.findIndex(k => k.key.length === key.length && key.every((v, i) => v === k.key[i]))
    const hit = at >= 0 ? this.kept.splice(at, 1)[0] : { key, text: systemPrompt(o) }
    this.kept.unshift(hit)
    if (this.kept.length > KEPT_PROMPTS) this.kept.pop()
    return hit.text
  }
}
