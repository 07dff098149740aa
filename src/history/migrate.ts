// Moves one runtime's conversation histories from one storage to the other (kotodama.migrate,
// issue 15). Copies every conversation, checks that the target then holds as many entries as the
// source had, and only then moves the source aside (never deletes). A target that already holds a
// history for one of the conversations stops the migration before anything is written, so no
// history is ever merged into another. Entries that are not valid in the source are skipped with
// the source's warning; they stay in the source, which is moved aside, not lost.
import type { HistorySide } from './sides'

export interface MigrationResult {
  conversations: number
  entries: number
}

export class MigrationError extends Error {
  name = 'MigrationError'
  constructor(readonly reason: 'target-not-empty' | 'not-written' | 'count-mismatch', readonly conversation: string, message: string) {
    super(message)
  }
}

export async function migrateHistory(from: HistorySide, to: HistorySide): Promise<MigrationResult> {
  const keys = await from.keys()
  for (const key of keys) {
    const there = await to.open(key).loadTail(0)
    if (there.more) throw new MigrationError('target-not-empty', key, `conversation ${key} already has a history in ${to.kind}`)
  }
  let entries = 0
  const copied: string[] = []
  try {
    for (const key of keys) {
      copied.push(key)
      entries += await copyOne(from, to, key)
    }
  } catch (e) {
    // a failed migration leaves the target as it found it (the copies set aside) and the source live
    for (const key of copied) await to.open(key).reset('failed-migration').catch(() => {})
    throw e
  }
  for (const key of keys) await from.open(key).reset('migrated')
  return { conversations: keys.length, entries }
}

async function copyOne(from: HistorySide, to: HistorySide, key: string): Promise<number> {
  const source = await from.open(key).load()
  const target = to.open(key)
  target.append(source).catch(() => {})
  await target.flushed()
  if (target.unwritten) throw new MigrationError('not-written', key, `conversation ${key}: ${target.unwritten} entries could not be written to ${to.kind}`)
  const copied = (await to.open(key).load()).length
  if (copied !== source.length) {
    const message = `conversation ${key}: ${to.kind} holds ${copied} entries after the copy, the source ${source.length}`
    throw new MigrationError('count-mismatch', key, message)
  }
  return source.length
}
