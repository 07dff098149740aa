// A person's note as the opening note and the console show it (SPEC §21): a bounded read of its
// head, so a note of a megabyte costs what a short one does, cut at `chars` UTF-16 units.
//
// Every turn's opening looks at the notes of its speakers, and most speakers have none: a look is
// one synchronous stat (microseconds, no trip through the thread pool), and a note's head is read
// again only when its size or mtime changed (`NoteHeads`).
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { LRUCache } from 'lru-cache'
import { looksBinary } from '../resources/text'
import { decode } from '../resources/utf8'
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
  const st = statSync(path, { throwIfNoEntry: false })
  return st?.isFile() ? readHeadOf(path, st.size, chars) : undefined
}

interface Cached { size: number; mtimeMs: number; chars: number; head: NoteHead | undefined }

/** Note heads kept while their files are unchanged (size and mtime), at most `max` of them. */
export class NoteHeads {
  private cache: LRUCache<string, Cached>

  constructor(max = 512) {
    this.cache = new LRUCache({ max })
  }

  get(path: string, chars: number): NoteHead | undefined {
    const st = statSync(path, { throwIfNoEntry: false })
    if (!st?.isFile()) {
      this.cache.delete(path)
      return undefined
    }
    const kept = this.cache.get(path)
    if (kept && kept.size === st.size && kept.mtimeMs === st.mtimeMs && kept.chars === chars) return kept.head
    const head = readHeadOf(path, st.size, chars)
    this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, chars, head })
    return head
  }
}

function readHeadOf(path: string, size: number, chars: number): NoteHead | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    // a UTF-16 unit is at most 3 UTF-8 bytes (a pair of them 4): this many bytes hold `chars` units
    const want = Math.min(size, chars * 3 + 4)
    const buf = Buffer.alloc(want)
    const bytesRead = readSync(fd, buf, 0, want, 0)
    const head = buf.subarray(0, bytesRead)
    if (looksBinary(head)) return { text: '(binary)', bytes: size, cut: false }
    const text = decode(head, 0, head.length).text.trim()
    const cut = text.length > chars || bytesRead < size
    const shown = !cut ? text : text.length > chars - 1 ? clip(text, chars - 1) : text + '…'
    return { text: shown, bytes: size, cut }
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}
