// An inbound image the sticker library knows (SPEC §19): matched by the sha256 of its bytes, which
// the asset store records once it has them (a data: source at once, a link once fetched at arrival).
// Waiting for that fetch holds the conversation's ingest, so it is bounded: only an image marked as
// a sticker, or one its platform declares small (NapCat's `file_size`), waits, and all images of one
// message together at most until `kit.stickers.until` (1.5 s after its arrival). An image whose
// bytes come later reads as it would without the library; nothing waits when the library is off.
import type { Sticker, StickerShelf } from '../stickers/types'
import type { RenderKit, StickerLabel, StickerLookup } from './kit'
import { label, type Stored } from './media'
import { within } from '../util/within'

/** how long one message's images may wait for their bytes, in all */
export const STICKER_WAIT_MS = 1500
/** an unmarked image declared at most this big waits for its bytes (stickers are small; photos mostly are not) */
export const SMALL_IMAGE_BYTES = 1 << 20

/**
 * The library as one arriving message's renderers see it (none while it holds no sticker): a
 * sticker's name only when the mind may send it (a waiting or banned one is told by its description).
 */
export function stickerLookup(shelf: (StickerShelf & { list?(): readonly Sticker[] }) | undefined): StickerLookup | undefined {
  if (!shelf || shelf.list?.().length === 0) return undefined
  return {
    of(sha256) {
      const s = shelf.byHash(sha256)
      if (!s) return undefined
      return { ...(s.state === 'approved' ? { name: s.name } : {}), ...(s.description ? { description: s.description } : {}) }
    },
    until: Date.now() + STICKER_WAIT_MS,
  }
}

/** What the library knows of the stored image; waits (bounded) for its bytes when `wait`. */
export async function libraryLabel(stored: Stored, kit: RenderKit, wait: boolean): Promise<StickerLabel | undefined> {
  const lookup = kit.stickers
  if (!lookup || !('url' in stored)) return undefined
  const id = stored.url.slice('asset://'.length)
  const left = lookup.until - Date.now()
  if (wait && left > 0) await within(kit.assets.fetched(id).catch(() => {}), left)
  const sidecar = await kit.assets.sidecar(id).catch((): undefined => undefined)
  return sidecar?.sha256 ? lookup.of(sidecar.sha256) : undefined
}

/** The note after a sticker's asset: its summary, then the library's name and description. */
export function stickerNote(summary: string | undefined, known: StickerLabel | undefined): string | undefined {
  const name = label(known?.name, 64)
  const description = label(known?.description, 200)
  const library = name && description ? `${name}: ${description}` : name ?? description
  return [summary, library].filter(Boolean).join('; ') || undefined
}
