// One entry of a runtime's trash (SPEC §22): a file's bytes as they were before a write removed or
// replaced them, and a small record beside them (what, when, from which chat). The record is
// written last, so a record on disk always has its bytes.
import { basename } from 'node:path'

export interface TrashEntry {
  /** `<day>/<n>`: the day folder (UTC) and the entry's number in it */
  id: string
  /** the file's path under local/ ('/'-separated) */
  rel: string
  /** when it was put in the trash (ms) */
  at: number
  bytes: number
  why: 'removed' | 'overwritten'
  /** the conversation whose write it was; absent: the runtime itself */
  conversation?: string
  /** the private chat the file belonged to: it is restored private to that chat */
  privateTo?: string
}

/** What a write tells the trash of the file it is about to change. */
export type TrashNote = Pick<TrashEntry, 'rel' | 'why' | 'conversation' | 'privateTo'>

/** The name of an entry's bytes in its day folder: its number, then the file's own name (clipped), for an owner browsing the disk. */
export function blobName(n: string, rel: string): string {
  return `${n}-${basename(rel).slice(0, 80)}`
}

export const RECORD_EXT = '.json'

/** A record read from disk, or undefined when it is not one (edited, cut short). */
export function parseRecord(id: string, text: string): TrashEntry | undefined {
  let v: any
  try {
    v = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!v || typeof v.rel !== 'string' || !v.rel || typeof v.at !== 'number' || typeof v.bytes !== 'number') return undefined
  if (v.why !== 'removed' && v.why !== 'overwritten') return undefined
  const nonEmpty = (x: unknown) => typeof x === 'string' && x ? x : undefined
  const entry: TrashEntry = { id, rel: v.rel, at: v.at, bytes: v.bytes, why: v.why }
  const conversation = nonEmpty(v.conversation)
  const privateTo = nonEmpty(v.privateTo)
  if (conversation) entry.conversation = conversation
  if (privateTo) entry.privateTo = privateTo
  return entry
}

/** The record as written (the id is its place on disk). */
export function recordText(e: TrashEntry): string {
  const { id: _, ...rest } = e
  return JSON.stringify(rest)
}

/** The UTC day of an instant, the name of its folder. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10)
}
