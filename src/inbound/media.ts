// What the media renderers share: which sources become assets, how a medium reads, and short labels
// from attributes (SPEC §19: `[voice 4 s: asset://…]`, never the platform's link).
import type h from '@satorijs/element'
import type { AssetStore } from '../resources/schemes/asset-store'
import { safeCut } from '../util/surrogate'

/**
 * The medium as an asset: its URL, none (no source the store could fetch), a registration that
 * failed, or not kept: its size (as the platform gives it) would not fit the bot's media store (SPEC §22).
 */
export type Stored = { url: string } | { none: true } | { failed: true } | { full: true }

/** The size the platform gives (NapCat's `file_size`, the adapter's `fileSize`), if any. */
export function sizeOf(a: Record<string, unknown>): number | undefined {
  return numberOf(a.fileSize ?? a.file_size ?? a.size)
}

/** The element's source: `src`, else `url` (an element the adapter does not know, such as `mface`, keeps its link there). */
export function sourceOf(el: h): unknown {
  return el.attrs?.src ?? el.attrs?.url
}

// A URL scheme has two letters at least, so a Windows path (C:\…) is a path.
const SCHEME = /^[a-z][a-z0-9+.-]+:/i

/**
 * Registers `src` as an asset. A bare file name or path is not a source: NapCat's group file often
 * has no url, and the adapter (lib/index.js adaptMessage) then puts the file's name in `src`. OneBot's
 * `base64://` becomes a data: URL; other schemes are the resource layer's to fetch or refuse.
 */
export async function store(
  assets: AssetStore, src: unknown, hints: { mediaType?: unknown; filename?: unknown; size?: number } = {},
): Promise<Stored> {
  if (typeof src !== 'string' || !SCHEME.test(src.trim())) return { none: true }
  // not fetched at all: a file the store cannot keep would only be thrown away
  if (hints.size !== undefined && assets.quota && !await assets.quota.couldKeep(hints.size)) return { full: true }
  let source = src.trim()
  const mediaType = typeof hints.mediaType === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(hints.mediaType) ? hints.mediaType : undefined
  if (/^base64:\/\//i.test(source)) source = `data:${mediaType ?? 'application/octet-stream'};base64,${source.slice(9)}`
  const filename = typeof hints.filename === 'string' && hints.filename.length < 200 ? baseName(hints.filename) : undefined
  try {
    // fetched at arrival: QQ's media links expire within hours (SPEC §19)
    return { url: `asset://${await assets.register(source, { mediaType, filename }, { fetchNow: true })}` }
  } catch {
    return { failed: true }
  }
}

/** `[head: asset://… note]`, `[head: note]` without an asset, `[head; could not be stored]`. */
export function mediaText(head: string, stored: Stored, note?: string): string {
  const tail = note ? ` ${note}` : ''
  if ('url' in stored) return `[${head}: ${stored.url}${tail}]`
  if ('failed' in stored) return `[${head}; could not be stored${tail}]`
  if ('full' in stored) return `[${head}; not kept: the bot's media store is full${tail}]`
  return note ? `[${head}: ${note}]` : `[${head}]`
}

/**
 * A short one-line label from an attribute (a string or a number), cut on a whole character; undefined
 * when empty. No control character, no line break of any kind (SPEC §22).
 */
export function label(v: unknown, max = 100): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) v = String(v)
  if (typeof v !== 'string') return undefined
  // only the start of a giant value is looked at
  const s = v.slice(0, max * 4).replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
  if (!s) return undefined
  return s.length > max ? `${s.slice(0, safeCut(s, max))}…` : s
}

/** The last part of a path (`/a/b/report.pdf` → `report.pdf`). */
export function baseName(name: string): string | undefined {
  const base = name.split(/[\\/]/).filter(Boolean).pop()
  return base || undefined
}

/** A number from an attribute that may be a numeric string; undefined when it is none, negative or not finite. */
export function numberOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN
  return Number.isFinite(n) && n >= 0 ? n : undefined
}
