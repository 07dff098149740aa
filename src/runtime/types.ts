// What the runtime needs from the chat platform; the Koishi edge implements it.
import type { SpeechPlatform } from '../voice/types'
import type { ActsPlatform } from '../part/platform'

/** A message people sent, as a send may answer it (QQ's official API needs it for a passive reply). */
export interface InboundRef {
  /** the platform's message id */
  id: string
  /** when it arrived (ms) */
  at: number
}

/** One platform message to send, with what the platform may need to know about it. */
export interface OutboundMessage {
  bot: string
  channel: string
  /** element markup */
  content: string
  guildId?: string
  /** the platform's own channel id, when it is not the key's */
  rawChannel?: string
  /** the latest message people sent in that channel: the one this send answers */
  replyTo?: InboundRef
}

/** the acts of SPEC §23 (react, poke, unsend) where the platform has them */
export interface Platform extends ActsPlatform {
  isOnline(bot: string): boolean
  /** Sends one platform message; resolves with its ids, throws with the platform's reason. */
  send(message: OutboundMessage): Promise<string[]>
  /** Whether `<face id|name>` names a face the platform layer knows (absent: faces are not checked) */
  knowsFace?(attrs: { id?: unknown; name?: unknown }): boolean
  /** Koishi's vits service speaking `text` as `speaker` (SPEC §20: `voice.tts: vits`); absent: there is none */
  speak?: SpeechPlatform['speak']
  /** how the platform of `bot` takes voice messages; absent: as they are */
  voiceFormat?: SpeechPlatform['voiceFormat']
  /** Whether `bot` may send a message nobody asked for (an idle wake, SPEC §21); absent: it may */
  proactive?(bot: string): boolean
  /** Shows a typing indicator where the adapter has one; never throws. */
  typing?(bot: string, channel: string): Promise<void>
  /**
   * Fetches remote bytes (assets) through the host's HTTP client; without one, private addresses
   * are refused unless `allowPrivate`.
   */
  fetch?(url: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal; allowPrivate: boolean }): Promise<{ data: Buffer; mediaType?: string }>
}
