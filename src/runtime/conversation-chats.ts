// The chat each turn of a conversation is held in (SPEC §22 "What one chat learns stays in that
// chat"): a channel-mode conversation's own channel; in cross mode the chat of the facts that woke
// the turn (turn-chat.ts), kept in its turn entry. It also knows the private chats owed a turn of
// their own, and what a turn held in a chat may see of the history (chat-window.ts).
import type { ConversationMode } from '../config/types'
import type { TurnChat } from '../contract/tool'
import { chatOf } from '../contract/turn-scope'
import type { Entry } from '../history/entries'
import { chatEntries } from './chat-window'
import { CrossChats } from './turn-chat'
import type { TurnRequest } from './turn-port'

export class ConversationChats {
  private cross = new CrossChats()

  constructor(private key: string, private profile: { mode: ConversationMode }) {}

  /**
   * The chat a new turn is held in; `recorded`, what its turn entry keeps: in cross mode the
   * channel of the facts that woke it ('' none), undefined in channel mode.
   */
  hold(entries: readonly Entry[], req: TurnRequest): { chat?: TurnChat; recorded?: string } {
    if (this.profile.mode !== 'cross') return { chat: chatOf(this.key) }
    const recorded = this.cross.hold(entries, req)
    return { chat: recorded ? chatOf(recorded) : undefined, recorded }
  }

  /** A turn for a private chat that woke a turn held elsewhere, when one is owed. */
  owed(): TurnRequest | undefined {
    const chat = this.cross.next()
    return chat ? { reason: 'direct', chat, note: `[wake: ${chat} wrote to you]` } : undefined
  }

  /**
   * What a request of a turn in `chat` shows: in cross mode a private chat's facts and turns only
   * in a turn held there; `view`, the private chat whose media it may show ('' none).
   */
  visible(entries: Entry[], chat: TurnChat | undefined): { entries: Entry[]; view: string } {
    const shown = this.profile.mode === 'cross' ? chatEntries(entries, chat) : entries
    return { entries: shown, view: chat?.direct ? chat.channel : '' }
  }
}
