// The stickers of a library from what is known of its files (docs/stickers.md): sorted by file
// name, the first of a name or of an image (its sha256) wins, each with its label and its record
// in the state file. The signature changes when anything the mind is shown changes.
import { join } from 'node:path'
import type { StateBook } from './state-book'
import { baseName, type ImageFile, type LabelFile } from './sticker-files'
import type { ReportOnce } from './sticker-folder'
import type { Sticker } from './types'

export interface Catalog {
  /** every sticker, any state, sorted by name */
  all: Sticker[]
  names: Map<string, Sticker>
  hashes: Map<string, Sticker>
  /** of names, labels, states and paths */
  signature: string
}

export const EMPTY_CATALOG: Catalog = { all: [], names: new Map(), hashes: new Map(), signature: '' }

export interface CatalogFiles {
  dir: string
  /** the library's image files, by name */
  images: readonly string[]
  known: ReadonlyMap<string, ImageFile>
  labels: ReadonlyMap<string, LabelFile>
  state: StateBook
  report: ReportOnce
}

/** An image file that is a sticker. */
type StickerImage = ImageFile & { sha256: string; mediaType: string }
const isSticker = (img: ImageFile | undefined): img is StickerImage => !!img?.sha256 && !!img.mediaType

export function catalogOf(f: CatalogFiles): Catalog {
  const all: Sticker[] = []
  const names = new Map<string, Sticker>()
  const hashes = new Map<string, Sticker>()
  for (const file of f.images) {
    const img = f.known.get(file)
    if (!isSticker(img)) continue
    const name = baseName(file)
    const had = names.get(name) ?? hashes.get(img.sha256)
    if (had) {
      const why = names.has(name) ? 'has the name of' : 'is the same image as'
      f.report.say(`dup:${file}:${img.sha256}:${had.path}`, 'info', 'stickers: %s %s %s; that one is the sticker', join(f.dir, file), why, had.path)
      continue
    }
    const sticker = stickerOf(f, file, name, img)
    all.push(sticker)
    names.set(name, sticker)
    hashes.set(img.sha256, sticker)
  }
  all.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  const signature = JSON.stringify(all.map(s => [s.name, s.sha256, s.description, s.tags, s.state, s.labelProblem, s.path]))
  return { all, names, hashes, signature }
}

function stickerOf(f: CatalogFiles, file: string, name: string, img: StickerImage): Sticker {
  const rec = f.state.get(img.sha256)
  const lf = f.labels.get(name)
  if (lf?.problem) {
    const path = join(f.dir, `${name}.json`)
    f.report.say(`label:${name}:${lf.size}:${lf.mtimeMs}`, 'warn', 'stickers: the label file %s %s; the sticker works by its name', path, lf.problem)
  }
  return {
    name, path: join(f.dir, file), mediaType: img.mediaType, sha256: img.sha256, size: img.size, mtimeMs: img.mtimeMs,
    ...lf?.label, ...(lf?.problem ? { labelProblem: lf.problem } : {}),
    state: rec?.state ?? 'approved', uses: rec?.uses ?? 0, ...(rec?.lastUsed ? { lastUsed: rec.lastUsed } : {}),
    source: rec?.source ?? { kind: 'owner' },
  }
}
