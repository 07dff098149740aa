// Where a conversation is (SPEC §27 "Where it is"): a group and its name, or a private chat and
// with whom, learnt from its facts. The system prompt says it; it changes only when a name does,
// so the prompt cache holds (SPEC §16).
import type { Fact } from '../../history/entries'
import { chatOf } from '../../contract/turn-scope'
import { CHANNEL_NAME_CHARS, displayName } from '../../util/transcript-text'

export interface Place {
  /** a cross-mode conversation is in several chats */
  kind: 'group' | 'private' | 'cross'
  channel: string
  /** a group's name, shown as the name rule shows names (one line, bounded) */
  name?: string
  /** a private chat's other person */
  partner?: { id: string; name?: string }
}

export class ChatPlace {
  private place: Place

  constructor(key: string) {
    const chat = chatOf(key)
    this.place = !chat ? { kind: 'cross', channel: key }
      : chat.direct ? { kind: 'private', channel: key, partner: { id: chat.user! } } : { kind: 'group', channel: key }
  }

  get current(): Place {
    return this.place
  }

  /** A fact of the conversation: a group's name, the partner's name, when they changed. */
  saw(f: Fact): void {
    const p = this.place
    if (p.kind === 'group' && f.channel === p.channel && f.channelName) {
      const name = displayName(f.channelName, '', CHANNEL_NAME_CHARS)
      if (name !== '?' && name !== p.name) this.place = { ...p, name }
    } else if (p.kind === 'private' && f.user?.id === p.partner?.id && !f.notice) {
      const name = displayName(f.user.name, f.user.id)
      if (name !== p.partner.name) this.place = { ...p, partner: { id: p.partner.id, name } }
    }
  }
}
