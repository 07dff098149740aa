// The live log of a conversation's index (docs/recall.md "Files"): the messages after the last
// segment, one line each, `n<TAB>json`, or `<TAB>json` for the next number (appended while the
// index was closed). Only appends and whole rewrites change it; none of them makes a folder: a
// log whose folder is gone is not written (the history still has the messages).
import { appendFile, open, truncate, type FileHandle } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { join } from 'node:path'
import { encodeDoc, type RecallDoc } from './docs'
import { isMissing } from '../resources/fs-error'
import { atomicWrite } from '../util/atomic-write'

export const LOG = 'live.log'

/** A message's line; without `n` it takes the next number when the log is read. */
export function logLine(doc: RecallDoc, n?: number): string {
  return `${n ?? ''}\t${encodeDoc(doc)}\n`
}

/** Appends lines to the log of `dir`; false when the folder is gone (nothing is written then). */
export async function appendLog(dir: string, lines: string[]): Promise<boolean> {
  if (!lines.length) return true
  try {
    await appendFile(join(dir, LOG), lines.join(''))
    return true
  } catch (e) {
    if (isMissing(e)) return false
    throw e
  }
}

/** The log holds these lines alone (after its older part became segments). */
export function rewriteLog(dir: string, lines: string[]): Promise<void> {
  return atomicWrite(join(dir, LOG), lines.join(''))
}

/** Empties the log (its messages are in a segment now). */
export async function clearLog(dir: string): Promise<void> {
  await truncate(join(dir, LOG), 0).catch(e => { if (!isMissing(e)) throw e })
}

/**
 * Reads the log line by line, in order (`each` may write a segment between lines). A torn last
 * line is not given; returns where the whole lines end and where the file ends, or undefined for no log.
 */
export async function readLog(dir: string, each: (line: string) => Promise<void>): Promise<{ whole: number; end: number } | undefined> {
  let fh: FileHandle
  try {
    fh = await open(join(dir, LOG), 'r')
  } catch (e) {
    if (isMissing(e)) return undefined
    throw e
  }
  const buf = Buffer.alloc(1 << 20)
  const decoder = new StringDecoder('utf8')
  let rest = ''
  let end = 0
  let whole = 0
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, end)
      if (!bytesRead) break
      const nl = buf.lastIndexOf(10, bytesRead - 1)
      if (nl >= 0) whole = end + nl + 1
      end += bytesRead
      const lines = (rest + decoder.write(buf.subarray(0, bytesRead))).split('\n')
      rest = lines.pop()!
      for (const line of lines) if (line) await each(line)
    }
  } finally {
    await fh.close()
  }
  return { whole, end }
}

/** Cuts a torn last line off. */
export function cutLog(dir: string, whole: number): Promise<void> {
  return truncate(join(dir, LOG), whole)
}
