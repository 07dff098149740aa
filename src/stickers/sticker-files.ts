// The files of a sticker library (SPEC §19, docs/stickers.md): what an image file and a label file
// must be, and reading one of each. A file is known by its size and mtime, so one that did not
// change is not read again; a file that cannot be a sticker carries why (`problem`).
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { IMAGE_EXTENSIONS, IMAGE_TYPES } from '../resources/image-types'
import { sniffMediaType } from '../resources/media-type'
import { parseLabel, type Label } from './label'

/** larger images are left out (a 30 MB GIF is no sticker, and the platforms refuse it) */
export const MAX_STICKER_BYTES = 10 << 20
/** label files past this are not read */
const MAX_LABEL_BYTES = 64 << 10
/** a name the mind can write in <sticker name="…"/>: no quotes, brackets, ampersands or control characters */
export const STICKER_NAME = /^[^\s"<>&\\/\p{Cc}](?:[^"<>&\\/\p{Cc}]{0,62}[^\s"<>&\\/\p{Cc}])?$/u

export interface FileMark {
  size: number
  mtimeMs: number
}

export interface ImageFile extends FileMark {
  sha256?: string
  mediaType?: string
  /** why it is left out */
  problem?: string
}

export interface LabelFile extends FileMark {
  label?: Label
  problem?: string
}

export const sizeText = (n: number) => n >= 1 << 20 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`
const same = (a: FileMark | undefined, b: FileMark) => !!a && a.size === b.size && a.mtimeMs === b.mtimeMs

/** The file's name without its extension. */
export const baseName = (file: string) => file.slice(0, -extname(file).length)

/** The image at `path` (named `file`): `known` again when unchanged, undefined when it is no file. */
export async function readImageFile(path: string, file: string, known: ImageFile | undefined, maxBytes: number): Promise<ImageFile | undefined> {
  const st = await stat(path).catch((): undefined => undefined)
  if (!st?.isFile()) return undefined
  const mark = { size: st.size, mtimeMs: st.mtimeMs }
  if (same(known, mark)) return known
  const got: ImageFile = { ...mark }
  if (st.size > maxBytes) {
    got.problem = `is ${sizeText(st.size)}, over the ${sizeText(maxBytes)} a sticker may have`
  } else if (!STICKER_NAME.test(baseName(file))) {
    got.problem = 'has a name <sticker name="…"/> cannot hold (quotes, <, >, &, slashes, control characters, edge spaces, over 64 characters)'
  } else {
    try {
      const data = await readFile(path)
      const type = sniffMediaType(data)
      if (!type || !IMAGE_TYPES.has(type)) got.problem = `is not a PNG, GIF, JPEG or WebP image (${type ?? 'unrecognised bytes'})`
      else Object.assign(got, { sha256: createHash('sha256').update(data).digest('hex'), mediaType: type })
    } catch (e: any) {
      got.problem = `could not be read (${e?.message ?? e})`
    }
  }
  return got
}

/** The label file at `path`: `known` again when unchanged, undefined when it is no file. */
export async function readLabelFile(path: string, known: LabelFile | undefined): Promise<LabelFile | undefined> {
  const st = await stat(path).catch((): undefined => undefined)
  if (!st?.isFile()) return undefined
  const mark = { size: st.size, mtimeMs: st.mtimeMs }
  if (same(known, mark)) return known
  if (st.size > MAX_LABEL_BYTES) return { ...mark, problem: `is ${st.size} bytes, over the ${MAX_LABEL_BYTES} a label file may have` }
  const parsed = await readFile(path, 'utf8').then(parseLabel, (e: any) => ({ problem: `could not be read (${e?.message ?? e})` }))
  return { ...mark, ...parsed }
}
