// The sticker library's shapes (SPEC §19), below everything that uses them: the part that offers
// stickers in the prompt and through search, send_message's <sticker name>, and the renderer that
// tells an inbound image is a known sticker.

/** One sticker of the library: an image file `<name>.<png|gif|jpg|webp>`, its label from `<name>.json` if any. */
export interface Sticker {
  /** the file's base name: what the mind writes in <sticker name="…"/> */
  name: string
  /** the image file's absolute path */
  path: string
  mediaType: string
  /** of the file's bytes: the same image under two names is one sticker */
  sha256: string
  size: number
  /** one sentence, from the label file (owner-written, or by attachment.visionModel) */
  description?: string
  tags?: string[]
  /** why the label file could not be read (the sticker still works by name) */
  labelProblem?: string
  /** learned stickers wait for the owner's approval; a banned one is never offered or sent */
  state: 'approved' | 'waiting' | 'banned'
  /** times sent, and the last time (ms since the epoch), from the library's state file */
  uses?: number
  lastUsed?: number
  /** dropped in by the owner, or learned from a group */
  source?: { kind: 'owner' | 'learned'; channel?: string; user?: string; at?: number }
  /** the image file's last change (ms since the epoch) */
  mtimeMs?: number
}

/** What sending and seeing need of the library. */
export interface StickerShelf {
  /** an approved sticker by name */
  byName(name: string): Sticker | undefined
  /** a sticker (any state) by the sha256 of its bytes */
  byHash(sha256: string): Sticker | undefined
  /** the sticker's bytes, read from its file */
  bytes(sticker: Sticker): Promise<Buffer>
  /** it was sent (uses, last used) */
  used(sticker: Sticker, at: number): void
}
