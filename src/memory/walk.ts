// The one walk of the memory folder, local/memory/ (SPEC §13): its regular files with their sizes
// and times, for recall's note search (SPEC §17) and the console's list (SPEC §12). Asynchronous,
// so a walk never holds up other conversations, and bounded: it stops at `limit` files.
// Symbolic links are neither listed nor followed (LocalFiles decides the same): their targets are
// not notes of this folder, and a walk that follows links could loop or leave it.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

export interface NoteFile {
  /** '/'-separated, relative to the walked folder */
  rel: string
  size: number
  mtimeMs: number
}

/** memory's quota allows 1000 files in all of local/ by default: a walk past ten times that is not of notes */
export const WALK_LIMIT = 10_000

/** The files under `dir` in name order (UTF-16 code units, each folder before the next name); none when it does not exist. */
export async function walkNotes(dir: string, opts: { limit?: number } = {}): Promise<NoteFile[]> {
  const limit = opts.limit ?? WALK_LIMIT
  const out: NoteFile[] = []
  const visit = async (rel: string): Promise<void> => {
    let entries
    try {
      entries = await readdir(rel ? join(dir, ...rel.split('/')) : dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) {
      if (out.length >= limit) return
      const child = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) await visit(child)
      else if (e.isFile()) {
        // a file removed between the listing and its stat is left out
        const st = await stat(join(dir, ...child.split('/'))).catch((): undefined => undefined)
        if (st) out.push({ rel: child, size: st.size, mtimeMs: st.mtimeMs })
      }
    }
  }
  await visit('')
  return out
}
