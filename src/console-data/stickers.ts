// The console's sticker view (SPEC §19, §12): each sticker of a runtime's library as the page
// shows it. The image itself is fetched apart, one sticker at a time ('kotodama/sticker-image').
import type { Sticker } from '../stickers/types'

export interface StickerSummary {
  name: string
  mediaType: string
  size: number
  description?: string
  tags?: string[]
  /** the label file could not be read */
  labelProblem?: string
  state: 'approved' | 'waiting' | 'banned'
  uses: number
  lastUsed?: number
  /** 'owner': a file the owner dropped in; 'learned': from a group (channel, user, time) */
  source: { kind: 'owner' | 'learned'; channel?: string; user?: string; at?: number }
}

export interface StickerView {
  /** stickers.enabled for the profile */
  enabled: boolean
  /** the library's folder */
  dir?: string
  learn?: { enabled: boolean; groups: string[] }
  /** waiting first (the owner's queue), then approved, then banned; by name within each */
  stickers: StickerSummary[]
}

const ORDER = { waiting: 0, approved: 1, banned: 2 }

export function stickerSummary(s: Sticker): StickerSummary {
  return {
    name: s.name, mediaType: s.mediaType, size: s.size, state: s.state, uses: s.uses ?? 0, source: s.source ?? { kind: 'owner' },
    ...s.description ? { description: s.description } : {},
    ...s.tags?.length ? { tags: s.tags } : {},
    ...s.labelProblem ? { labelProblem: s.labelProblem } : {},
    ...s.lastUsed ? { lastUsed: s.lastUsed } : {},
  }
}

export function stickerSummaries(list: readonly Sticker[]): StickerSummary[] {
  return [...list].sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(stickerSummary)
}

/** A label the page sent: a description and tags (a string of comma-separated words is accepted too). */
export function labelOf(v: unknown): { description?: string; tags?: string[] } | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
  const { description, tags } = v as Record<string, unknown>
  if (description !== undefined && typeof description !== 'string') return undefined
  const list = typeof tags === 'string' ? tags.split(/[,，、]/) : tags
  if (list !== undefined && !(Array.isArray(list) && list.every(t => typeof t === 'string'))) return undefined
  return { description: description as string | undefined, tags: list as string[] | undefined }
}
