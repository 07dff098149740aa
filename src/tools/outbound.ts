// Elements parts add to what send_message may send (SPEC §19 `<sticker>`, §20 `<voice>`, and the
// acts of §23): a part declares the tag it serves (the allow-list entry, how it is reported while
// the part is off) and, when on, how such an element is made ready before the message goes out,
// its per-turn cap and the lines it adds to send_message's description. send_message knows no part.
import type h from '@satorijs/element'
import type { SendRefs } from './send-refs'

/** Why an element was left out: `code` for programs, `message` for the mind. */
export interface OutboundDrop {
  code: string
  message: string
}

/** A tag a part serves, whether the part is on or off for this runtime. */
export interface OutboundTag {
  readonly tag: string
  /** the attributes it keeps: its entry of the element allow-list (send-elements.yml holds the others) */
  readonly attrs: readonly string[]
  /** reported while its part is off; the element's words are kept */
  readonly off: OutboundDrop
}

/** An element made ready: what goes in its place, and what the send learns of it. */
export interface OutboundReady {
  elements: h[]
  /** seconds of speech: a voice message's typing pause is its speech */
  seconds?: number
  /** where what was made is kept (send_message's `voices`) */
  url?: string
  /** once its message is in the chat (a sticker's use) */
  sent?(): void
  /**
   * an act (SPEC §23: a reaction, a poke, an unsend): made once its message is sent, or in its place
   * when the message holds only acts; answers why it could not be made (the platform's words)
   */
  act?(): Promise<OutboundDrop | undefined>
}

/** Left out, with what stays in its place (a voice's words as text). */
export interface OutboundLeftOut {
  dropped: OutboundDrop
  kept?: h[]
}

export type OutboundResult = OutboundReady | OutboundLeftOut

/** Where a send goes, as the platform names it: what an act needs to find the chat. */
export interface OutboundTarget {
  /** the channel key ('group:123', 'private:456') */
  channel: string
  guildId?: string
  /** the platform's own channel id, when it is not the key's */
  rawChannel?: string
}

/** The bot's own messages in the channel of a send (SPEC §23 unsending), read when asked. */
export interface OwnSends {
  /** when the bot sent message `id` in this channel (ms); undefined: not its own message here, or forgotten */
  sentAt(id: string): number | undefined
  /** it took `id` back already (this run, or before a restart: the history's `unsent` entries) */
  unsent?(id: string): boolean
}

/** What a send to `bot` gives an element's resolution. */
export interface OutboundSend {
  bot: string
  signal?: AbortSignal
  /** ToolCallContext.paid: asked before a paid request (speech) is made; throws past a program's limit (SPEC §22) */
  paid?(what: string): void
  /** where the message goes (absent outside a conversation's send) */
  target?: OutboundTarget
  /** what a message there may point at: ids the mind saw, members who wrote */
  refs?: SendRefs
  /** the bot's own sends there, with their times */
  own?: OwnSends
  /** true the first time `key` is asked in this turn, false after (one poke per person per turn) */
  firstInTurn?(key: string): boolean
}

/** How a part that is on serves its tag. */
export interface OutboundServer {
  readonly tag: string
  /** lines of send_message's description while it is served */
  readonly lines?: string
  /**
   * how many one turn may send (code holds it; the model only proposes), and the drop past it;
   * `key`: the count it shares with other tags (the acts count together), else its tag's own
   */
  readonly perTurn?: { cap: number; over: OutboundDrop; key?: string }
  /**
   * why `el` cannot go out, told before the turn's cap: a wrong name is as wrong next turn, and an
   * act that cannot be made (an unknown message, not one's own) uses none of the turn's acts
   */
  refuse?(el: h, send: OutboundSend): OutboundDrop | undefined
  /** `el` made ready; never throws (a failure is a drop) */
  resolve(el: h, send: OutboundSend): Promise<OutboundResult>
}

/** The outbound elements of one runtime: every part's tags, and the servers of the parts that are on. */
export interface OutboundElements {
  /** the attributes `tag` keeps, when a part serves it */
  attrs(tag: string): ReadonlySet<string> | undefined
  tag(tag: string): OutboundTag | undefined
  server(tag: string): OutboundServer | undefined
  /** the servers of the parts that are on, in part order */
  readonly servers: readonly OutboundServer[]
  /** the description lines of the servers, in part order */
  readonly lines: readonly string[]
}

export function outboundElements(tags: readonly OutboundTag[], servers: readonly OutboundServer[]): OutboundElements {
  const byTag = new Map(tags.map(t => [t.tag, t]))
  const attrs = new Map(tags.map(t => [t.tag, new Set(t.attrs)]))
  const served = new Map(servers.map(s => [s.tag, s]))
  return {
    attrs: tag => attrs.get(tag),
    tag: tag => byTag.get(tag),
    server: tag => served.get(tag),
    servers,
    lines: servers.flatMap(s => s.lines ? [s.lines] : []),
  }
}
