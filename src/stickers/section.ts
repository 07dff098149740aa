// The stickers section of the system prompt (SPEC §19, §16): up to `offer` approved stickers by
// name, each with its description, and how to send one. It is made from the library's stickers
// only, sorted by name, so it is the same text until the library changes (a prompt cache holds).
import type { Sticker } from './types'

/** a description longer than this is cut in the prompt (search sees all of it) */
export const OFFER_DESCRIPTION = 60

export interface SectionOptions {
  maxPerTurn: number
  offer: number
  /** the search tool is there (recall on) */
  search: boolean
}

/** '' when no sticker is offered. */
export function stickerSection(approved: readonly Sticker[], o: SectionOptions): string {
  if (!approved.length || o.maxPerTurn <= 0) return ''
  const shown = approved.slice(0, o.offer)
  const rest = approved.length - shown.length
  const per = o.maxPerTurn === 1 ? 'at most one sticker a turn' : `at most ${o.maxPerTurn} stickers a turn`
  const more = rest > 0 ? `${rest} more${o.search ? ': search({query}) finds them by what they show' : ''}` : ''
  const found = !rest && o.search ? 'search({query}) also finds them by what they show' : ''
  const lines = shown.map(s => {
    const d = s.description
    return `- ${s.name}${d ? ` — ${d.length > OFFER_DESCRIPTION ? `${d.slice(0, OFFER_DESCRIPTION - 1)}…` : d}` : ''}`
  })
  const head = `## Stickers\nSend one with <sticker name="…"/> in a send_message message (${per})`
  return `${head}${more || found ? `; ${more || found}` : ''}.\n${lines.join('\n')}`
}
