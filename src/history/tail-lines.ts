// The last lines of a JSONL file, read backwards in chunks so a long history is never read whole.
// A history's line numbers (for its warnings) are counted only when one is needed.
import type { FileHandle } from 'node:fs/promises'

const TAIL_CHUNK = 256 * 1024
const NL = 10

export interface TailLines {
  /** the last lines, oldest first, without their newlines (a torn last line included) */
  lines: Buffer[]
  /** lines[0] is the file's first line: nothing older is on disk */
  complete: boolean
  /** the file ends without a newline (a crash mid-append) */
  torn: boolean
  size: number
  /** the file's 1-based line number of lines[0]; reads the file's head when not `complete` */
  firstLine(): Promise<number>
}

/** At most `maxLines` + 1 lines from the end of the open file (the extra one tells older lines exist). */
export async function readTailLines(fh: FileHandle, maxLines: number): Promise<TailLines> {
  const size = (await fh.stat()).size
  const lines: Buffer[] = []
  let pos = size
  let rest = Buffer.alloc(0)
  while (pos > 0 && lines.length <= maxLines) {
    const len = Math.min(TAIL_CHUNK, pos)
    pos -= len
    const chunk = Buffer.alloc(len)
    await fh.read(chunk, 0, len, pos)
    let buf = Buffer.concat([chunk, rest])
    for (let nl = buf.lastIndexOf(NL); nl !== -1 && lines.length <= maxLines; nl = buf.lastIndexOf(NL)) {
      lines.push(buf.subarray(nl + 1))
      buf = buf.subarray(0, nl)
    }
    rest = buf
  }
  // The file's first line: whole once the read reached offset 0 and the count left room.
  const complete = pos === 0 && lines.length <= maxLines
  if (complete && rest.length) lines.push(rest)
  lines.reverse()
  const firstLine = async () => complete ? 1 : 1 + await countNewlines(fh, pos + rest.length + 1)
  const torn = size > 0 && !(await endsWithNewline(fh, size))
  return { lines, complete, torn, size, firstLine }
}

async function endsWithNewline(fh: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1)
  await fh.read(last, 0, 1, size - 1)
  return last[0] === NL
}

/** Newlines in the first `bytes` bytes of the file. */
async function countNewlines(fh: FileHandle, bytes: number): Promise<number> {
  const buf = Buffer.alloc(Math.min(TAIL_CHUNK, Math.max(bytes, 1)))
  let count = 0
  for (let pos = 0; pos < bytes;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, bytes - pos), pos)
    if (!bytesRead) break
    for (let at = buf.indexOf(NL); at !== -1 && at < bytesRead; at = buf.indexOf(NL, at + 1)) count++
    pos += bytesRead
  }
  return count
}
