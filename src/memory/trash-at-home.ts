// The trash of a runtime that is not running (the console page reads and restores it from the
// home's files): the same entries and the same restore as memory's, without a runtime's caches.
// A running runtime's trash goes through its Memory (memory.ts), serialised with its writes.
import { join } from 'node:path'
import { formatFileUrl } from '../resources/file-url'
import { systemClock } from '../util/clock'
import type { Logger } from '../util/logger'
import { DEFAULT_MEMORY } from './config'
import { PrivateFiles } from './private-files'
import type { TrashEntry } from './trash/entry'
import { restoreInto } from './trash/restore'
import { TRASH_DIR, Trash } from './trash/trash'

const trashOf = (home: string, logger?: Logger) => new Trash(join(home, TRASH_DIR), () => DEFAULT_MEMORY, systemClock, logger)

/** The trash of a home, newest first. */
export function trashAtHome(home: string, logger?: Logger): Promise<TrashEntry[]> {
  return trashOf(home, logger).list()
}

/** Puts an entry back into the home's local/ (beside its path when that is taken); its URL. */
export async function restoreAtHome(home: string, id: string, logger?: Logger): Promise<{ url: string }> {
  const trash = trashOf(home, logger)
  const entry = await trash.find(id)
  if (!entry) throw new Error(`no trash entry ${id}`)
  const root = join(home, 'local')
  const done = await restoreInto(root, entry, trash.pathOf(entry))
  if (entry.privateTo) await new PrivateFiles(home, root, logger).mark([...done.folders, done.rel], entry.privateTo)
  await trash.drop(entry)
  return { url: formatFileUrl({ scheme: 'local', segments: done.rel.split('/'), selectors: [], raw: '' }) }
}
