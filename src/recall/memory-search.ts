// Searching the mind's notes, local://memory/ (SPEC §17): every line of every note is a
// document, ranked as messages are (a line is found through the lines around it, as a message
// through its neighbours). The notes are few and small (memory's quotas), so their index lives in
// memory and is made again when a note changed (its size or time), found by one walk of the folder
// per search (memory/walk.ts). The walk and the reads are asynchronous: a search never holds up other conversations.
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { QueryTerm } from './analyze'
import { LiveBuffer } from './live'
import { rank } from './rank'
import { formatFileUrl } from '../resources/file-url'
import { looksBinary } from '../resources/text'
import { walkNotes, type NoteFile } from '../memory/walk'
import { isPrivateNote } from '../people/people-path'

/** notes longer than this are not searched (memory's default quota per file is 1 MiB) */
const MAX_NOTE_BYTES = 1 << 20
/** and no more than this in all */
const MAX_TOTAL_BYTES = 16 << 20
const FOLDER = 'memory'

export interface MemoryHit {
  url: string
  line: number
  text: string
  /** the note's last change (ms) */
  at: number
  score: number
  scale: number
}

type Note = NoteFile

export class MemorySearch {
  private built?: { signature: string; index: LiveBuffer; lines: { note: Note; line: number }[] }

  /** `root`: the runtime's local/ folder. */
  constructor(private root: string) {}

  /**
   * `visible`: whether a note (its path under local/) exists for the reader (SPEC §22); the index
   * holds every note, so a reader that may not see some ranks them all and keeps its own.
   */
  async search(terms: QueryTerm[], limit: number, visible?: (rel: string) => boolean): Promise<MemoryHit[]> {
    if (!terms.length) return []
    const notes = await this.walk()
    if (!notes.length) return []
    const built = await this.build(notes)
    const seen = visible && ((n: number) => visible(`${FOLDER}/${built.lines[n].note.rel}`))
    const hidden = seen && notes.some(n => !visible(`${FOLDER}/${n.rel}`))
    const r = rank([built.index], terms, { limit: hidden ? built.lines.length : limit })
    return r.hits.filter(h => !hidden || seen(h.n)).slice(0, limit).map(h => {
      const { note, line } = built.lines[h.n]
      return {
        url: formatFileUrl({ scheme: 'local', segments: [FOLDER, ...note.rel.split('/')], selectors: [{ kind: 'from', start: line }], raw: '' }),
        line, text: built.index.docs[h.n].text, at: note.mtimeMs, score: h.score, scale: r.scale,
      }
    })
  }

  /** The notes small enough to search; never a private section of a person's note (a group must not find it, SPEC §21). */
  private async walk(): Promise<Note[]> {
    return (await walkNotes(join(this.root, FOLDER))).filter(n => n.size <= MAX_NOTE_BYTES && !isPrivateNote(n.rel, true))
  }

  private async build(notes: Note[]) {
    const signature = notes.map(n => `${n.rel}\u0000${n.size}\u0000${n.mtimeMs}`).join('\u0001')
    if (this.built?.signature === signature) return this.built
    const index = new LiveBuffer(0)
    const lines: { note: Note; line: number }[] = []
    let total = 0
    for (const note of notes) {
      if ((total += note.size) > MAX_TOTAL_BYTES) break
      const text = await readNote(join(this.root, FOLDER, note.rel), note.size)
      if (text === undefined) continue
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return
        index.add({ k: `${note.rel}:${i + 1}`, id: null, at: note.mtimeMs, who: '', uid: '', ch: '', text: line })
        lines.push({ note, line: i + 1 })
      })
    }
    return this.built = { signature, index, lines }
  }
}

async function readNote(path: string, size: number): Promise<string | undefined> {
  let fh
  try {
    fh = await open(path, 'r')
    const buf = Buffer.alloc(size)
    let got = 0
    while (got < size) {
      const { bytesRead: n } = await fh.read(buf, got, size - got, got)
      if (!n) break
      got += n
    }
    if (looksBinary(buf.subarray(0, Math.min(got, 8192)))) return undefined
    return buf.subarray(0, got).toString('utf8')
  } catch {
    return undefined
  } finally {
    await fh?.close()
  }
}
