// What every inbound renderer is given (its own file, so renderers import it without a cycle
// through render.ts, which imports them all).
import type h from '@satorijs/element'
import type { AssetStore } from '../resources/schemes/asset-store'

/** A message inside a forward, as the adapter returned it. */
export interface ForwardedMessage {
  author: string
  elements: h[]
  at?: number
}

/** The bounds of one forward's whole expansion, shared by the forwards nested in it. */
export interface ExpansionBudget {
  /** messages that may still be shown */
  left: number
  /** messages met so far, shown or not */
  total: number
  /** after this time (ms since the epoch) no nested forward is fetched */
  deadline: number
}

/** What the sticker library knows of an image's bytes (SPEC §19): its name when it may be sent, its description. */
export interface StickerLabel {
  name?: string
  description?: string
}

/** The sticker library, when the profile has one on: inbound images are matched against it by their bytes. */
export interface StickerLookup {
  /** the library's sticker with these bytes */
  of(sha256: string): StickerLabel | undefined
  /** waiting for images' bytes ends at this time (ms since the epoch), for the whole message */
  until: number
}

/** The message a voice came with (its transcript's place, and recall's author). */
export interface VoiceOrigin {
  id: string
  channel: string
  user: { id: string; name: string }
}

/** What renderers may use: the runtime's assets, and the platform's help where it has some. */
export interface RenderKit {
  assets: AssetStore
  /** the sticker library, when it is on */
  stickers?: StickerLookup
  /** hears a voice message of this message as it arrives (SPEC §20), when voice.stt is set; `seconds` as the platform said */
  voice?(url: string, seconds?: number): void
  /** the messages of a forward, fetched through the adapter; undefined when it cannot */
  forward?(id: string): Promise<ForwardedMessage[] | undefined>
  /** set by the forward renderer inside an expansion: its budget and how deep this forward is */
  expansion?: { budget: ExpansionBudget; depth: number }
}

/** Renders the children of an element (or a forward's messages) through all renderers, with `kit` when given. */
export type RenderChildren = (els: h[], kit?: RenderKit) => Promise<h[]>

/** Renders one element; undefined: not this renderer's kind (the next one is asked). */
export type Renderer = (el: h, kit: RenderKit, children: RenderChildren) => Promise<h | h[] | undefined> | h | h[] | undefined
