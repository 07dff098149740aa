// Attachment entries of the history (SPEC §7): media a person sent with a fact, media a tool
// result carried. Items are addressed as `${id}:${index}` by projection.
import h from '@satorijs/element'
import type { Lifetime } from '../../config/types'
import type { AttachmentItem } from '../../exit/attachments'
import type { Entry, Fact } from '../../history/entries'
import { factAttachmentId } from '../../history/recalled'

/** asset:// images in a fact's content (people's media were registered as assets by the edge). */
export function inboundImages(content: string): string[] {
  if (!content.includes('asset://')) return []
  const sources: unknown[] = h.select(h.parse(content), 'img').map(el => el.attrs.src)
  return sources.filter((src): src is string => typeof src === 'string' && src.startsWith('asset://'))
}

/** The entry that shows a fact's images, first seen by `turn`; undefined without images. */
export function factAttachments(fact: Fact, turn: number, lifetime: Lifetime): Entry | undefined {
  const images = inboundImages(fact.content)
  if (!images.length) return undefined
  return {
    type: 'attachments', at: fact.at, turn, id: factAttachmentId(fact), source: 'fact',
    items: images.map(url => ({ url, mediaType: 'image/unknown', lifetime })),
  }
}

export function toolAttachments(o: { at: number; turn: number; callId: string; tool: string; items: AttachmentItem[] }): Entry | undefined {
  if (!o.items.length) return undefined
  return { type: 'attachments', at: o.at, turn: o.turn, id: o.callId, source: 'tool', tool: o.tool, items: o.items }
}
