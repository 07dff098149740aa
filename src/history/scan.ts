// Reading a whole history front to back in batches, in bounded memory (recall rebuilds its index
// from it, docs/recall.md): a JSONL file line by line, a table by pages of rows in `seq` order.
// Nothing is changed; a line or row that is not an entry is skipped without a word (the store
// warns about it when the conversation loads).
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { isMissing } from '../resources/fs-error'
import type { ConversationRef, HistoryTable } from './table'
import type { Entry } from './entries'

const BATCH = 500

export type EntryBatch = (entries: Entry[]) => Promise<void>

function parse(text: string): Entry | undefined {
  try {
    const v = JSON.parse(text)
    return v && typeof v === 'object' && typeof v.type === 'string' && typeof v.at === 'number' ? v : undefined
  } catch {
    return undefined
  }
}

export async function scanJsonl(path: string, fn: EntryBatch): Promise<void> {
  const stream = createReadStream(path)
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve())
    stream.once('error', reject)
  })
  try {
    await opened
  } catch (e) {
    if (isMissing(e)) return
    throw e
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  let batch: Entry[] = []
  try {
    for await (const line of lines) {
      const e = line.trim() ? parse(line) : undefined
      if (e) batch.push(e)
      if (batch.length >= BATCH) {
        await fn(batch)
        batch = []
      }
    }
  } finally {
    stream.destroy()
  }
  if (batch.length) await fn(batch)
}

export async function scanTable(table: HistoryTable, ref: ConversationRef, fn: EntryBatch): Promise<void> {
  const parseRows = (rows: { entry: string }[]) => rows.map(r => parse(r.entry)).filter((e): e is Entry => !!e)
  if (!table.after) {
    const rows = (await table.newest(ref)).reverse()
    for (let i = 0; i < rows.length; i += BATCH) await fn(parseRows(rows.slice(i, i + BATCH)))
    return
  }
  for (let last = 0; ;) {
    const rows = await table.after(ref, last, BATCH)
    if (!rows.length) return
    last = rows[rows.length - 1].seq
    await fn(parseRows(rows))
  }
}
