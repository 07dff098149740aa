// The chat a turn is in (SPEC §22): in channel mode, the conversation's own channel. A cross-mode
// conversation spans channels: its turns get their chat from the facts that woke them — a private
// chat among them is the turn's chat (a private-chat turn sees the groups too), else the one group
// they came from; a wait's wake stays in the chat of the turn that armed it. The turn entry keeps
// the chat (`chat`), so later requests know which turns were held in which private chat.
import { isDirectKey } from '../claims/channel-key'
import type { Entry } from '../history/entries'


/**
 * The channel a cross-mode turn is in, from the history up to (not including) index `end`, where
 * its turn entry stands or is about to: the channels of the facts that woke it since the last step
 * or turn. One private chat among them: that chat (the newest, when several); else one group: that
 * group; else none. A wait's wake with no waking fact: the chat of the turn before.
 */
export function wokenIn(entries: readonly Entry[], end: number, reason: string): string | undefined {
  const channels = wakingChannels(entries, end)
  const direct = channels.find(isDirectKey)
  if (direct) return direct
  if (channels.length) return channels.every(c => c === channels[0]) ? channels[0] : undefined
  if (!reason.startsWith('wait:')) return undefined
  for (let i = end - 1; i >= 0; i--) if (entries[i].type === 'turn') return turnChannel(entries, i)
  return undefined
}

/** The channels of the facts that woke the turn whose entry stands (or is about to) at `end`, newest first. */
export function wakingChannels(entries: readonly Entry[], end: number): string[] {
  const channels: string[] = []
  for (let i = end - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'step' || e.type === 'turn') break
    if (e.type === 'fact' && e.wake && !e.held) channels.push(e.fact.channel)
  }
  return channels
}

/** The channel of the turn whose entry is `entries[i]`: as recorded, or (older histories) as its waking facts say. */
export function turnChannel(entries: readonly Entry[], i: number): string | undefined {
  const e = entries[i]
  if (e.type !== 'turn') return undefined
  return e.chat !== undefined ? e.chat || undefined : wokenIn(entries, i, e.reason)
}

/** Cross mode's turns and their chats: which chat a turn is held in, and the private chats owed one of their own. */
export class CrossChats {
  private owed: string[] = []

  /**
   * The channel a turn is held in ('' none), from its request or the facts that woke it (the history
   * up to now); the other private chats among those facts are owed a turn of their own.
   */
  hold(entries: readonly Entry[], req: { chat?: string; reason: string }): string {
    const chat = req.chat ?? wokenIn(entries, entries.length, req.reason) ?? ''
    for (const c of wakingChannels(entries, entries.length)) if (isDirectKey(c) && c !== chat && !this.owed.includes(c)) this.owed.push(c)
    this.owed = this.owed.filter(c => c !== chat)
    return chat
  }

  /** The private chat owed a turn next, if any. */
  next(): string | undefined {
    return this.owed[0]
  }
}
