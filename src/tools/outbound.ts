// Elements parts add to what send_message may send (SPEC §19 `<sticker>`, §20 `<voice>`, and the
// acts of §23): a part declares the tag it serves (the allow-list entry, how it is reported while
// the part is off) and, when on, how such an element is made ready before the message goes out,
// its per-turn cap and the lines it adds to send_message's description. send_message knows no part.
import type h from '@satorijs/element'

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
}

/** Left out, with what stays in its place (a voice's words as text). */
export interface OutboundLeftOut {
  dropped: OutboundDrop
  kept?: h[]
}

export type OutboundResult = OutboundReady | OutboundLeftOut

/** What a send to `bot` gives an element's resolution. */
export interface OutboundSend {
  bot: string
  signal?: AbortSignal
  /** ToolCallContext.paid: asked before a paid request (speech) is made; throws past a program's limit (SPEC §22) */
  paid?(what: string): void
}

/** How a part that is on serves its tag. */
export interface OutboundServer {
  readonly tag: string
  /** lines of send_message's description while it is served */
  readonly lines?: string
  /** how many one turn may send (code holds it; the model only proposes), and the drop past it */
  readonly perTurn?: { cap: number; over: OutboundDrop }
  /** why `el` cannot go out, told before the turn's cap (a wrong name is as wrong next turn) */
  refuse?(el: h): OutboundDrop | undefined
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
