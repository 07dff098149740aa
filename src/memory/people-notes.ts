// A person's note as the opening note and the console show it (SPEC §21): a bounded read of its
// head, so a note of a megabyte costs what a short one does, cut at `chars` UTF-16 units.
import { open } from 'node:fs/promises'
import { looksBinary } from '../resources/text'
import { decode } from '../resources/text/utf8'
import { clip } from '../util/clip'

export interface NoteHead {
  /** at most `chars` units, '…' marks a cut */
  text: string
  /** the file's size in bytes */
  bytes: number
  cut: boolean
}

/** The head of a note; undefined when there is none (or it is not a regular file). */
export async function readNoteHead(path: string, chars: number): Promise<NoteHead | undefined> {
  let fh
  try {
    fh = await open(path, 'r')
  } catch {
    return undefined
  }
  try {
    const st = await fh.stat()
    if (!st.isFile()) return undefined
    // a UTF-16 unit is at most 3 UTF-8 bytes (a pair of them 4): this many bytes hold `chars` units
    const want = Math.min(st.size, chars * 3 + 4)
    const buf = Buffer.alloc(want)
    const { bytesRead } = await fh.read(buf, 0, want, 0)
    const head = buf.subarray(0, bytesRead)
    if (looksBinary(head)) return { text: '(binary)', bytes: st.size, cut: false }
    const text = decode(head, 0, head.length).text.trim()
    const cut = text.length > chars || bytesRead < st.size
    const shown = !cut ? text : text.length > chars - 1 ? clip(text, chars - 1) : text + '…'
    return { text: shown, bytes: st.size, cut }
  } finally {
    await fh.close()
  }
}
