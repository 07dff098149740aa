// A file as the model reads it (SPEC §19): `[file: report.pdf, 1.2 MB: asset://…]`. NapCat's group file
// (NapCatQQ's fileElement converter) has `file` (its name), `file_id`, `file_size` and a `url` only when
// NapCat could get one; without it the adapter (lib/index.js adaptMessage) sets `src` to the bare
// name, which is no source: then `[file: report.pdf, 1.2 MB]`, and nothing is registered.
import h from '@satorijs/element'
import type { RenderKit } from './kit'
import { baseName, label, mediaText, numberOf, sourceOf, store } from './media'

export function renderFile(el: h, kit: RenderKit): Promise<h> | undefined {
  return el.type === 'file' ? file(el, kit) : undefined
}

async function file(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  const raw = [a.name, a.filename, a.title, a.file].find(v => typeof v === 'string' && v.trim())
  const name = raw ? label(baseName(raw.slice(0, 1000)), 120) : undefined
  const bytes = numberOf(a.fileSize ?? a.file_size ?? a.size)
  const details = [name, bytes !== undefined ? humanSize(bytes) : undefined].filter(Boolean).join(', ')
  const stored = await store(kit.assets, sourceOf(el), { mediaType: a.mime ?? a.type, filename: name, size: bytes })
  return h.text(mediaText(details ? `file: ${details}` : 'file', stored))
}

/** 512 B, 1.0 KB, 1.2 MB, 3.4 GB: one decimal above bytes. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let n = bytes / 1024
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${n.toFixed(1)} ${units[i]}`
}
