// A runtime's trash as the console page lists it (SPEC §22 "Nothing the owner keeps is lost"):
// what was removed or overwritten, when, its size, from which chat; newest first.
import { formatFileUrl } from '../resources/file-url'
import type { TrashEntry } from '../memory/trash/entry'

/** entries the page lists at most */
export const MAX_TRASH_LISTED = 500

export interface TrashItemView {
  id: string
  url: string
  at: number
  bytes: number
  why: TrashEntry['why']
  /** the conversation whose write it was */
  conversation?: string
  /** the private chat it belonged to (restored private to it) */
  privateTo?: string
}

export interface TrashView {
  items: TrashItemView[]
  /** entries beyond those listed */
  more: number
}

export function trashView(entries: TrashEntry[]): TrashView {
  const items = entries.slice(0, MAX_TRASH_LISTED).map(e => ({
    id: e.id,
    url: formatFileUrl({ scheme: 'local', segments: e.rel.split('/'), selectors: [], raw: '' }),
    at: e.at,
    bytes: e.bytes,
    why: e.why,
    ...e.conversation ? { conversation: e.conversation } : {},
    ...e.privateTo ? { privateTo: e.privateTo } : {},
  }))
  return { items, more: Math.max(0, entries.length - items.length) }
}
