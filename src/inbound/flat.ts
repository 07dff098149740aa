// A message tree too deep to render element by element (SPEC §22 "deep trees are flattened to their
// text and media, bounded, nothing lost"): walked with a stack (no recursion to overflow), its
// formatting left out, its text kept and its media rendered as usual (assets registered). The whole
// message is bounded: MAX_VISITS elements looked at, MAX_TEXT units of flattened text kept; past
// either, a note says what was left out.
import h from '@satorijs/element'
import type { RenderKit } from './kit'
import { renderOther } from './other'
import { MEDIA_RENDERERS, renderOne } from './renderers'
import { safeCut } from '../util/surrogate'

/** elements one message may make the renderer look at */
export const MAX_VISITS = 20_000
/** flattened text one message keeps (UTF-16 units); a longer message is archived whole later (long-facts.ts) */
const MAX_TEXT = 200_000

/** What one message's render has spent. */
export interface Walk {
  visits: number
  /** flattened text kept so far */
  text: number
  /** flattened text left out (past MAX_TEXT) */
  dropped: number
  /** elements not looked at (past MAX_VISITS) */
  unread: boolean
}

export const newWalk = (): Walk => ({ visits: 0, text: 0, dropped: 0, unread: false })

/** Counts one element; true when the message's elements are spent (the rest is not read). */
export function overVisits(walk: Walk): boolean {
  if (walk.unread) return true
  if (++walk.visits <= MAX_VISITS) return false
  walk.unread = true
  return true
}

/** What the render left out, as the model reads it; undefined when nothing. */
export function walkNote(walk: Walk): h | undefined {
  const parts = [
    ...walk.dropped ? [`${walk.dropped} more characters`] : [],
    ...walk.unread ? [`the rest of its ${MAX_VISITS}+ elements not read`] : [],
  ]
  return parts.length ? h.text(`[… ${parts.join('; ')}]`) : undefined
}

const noChildren = async (): Promise<h[]> => []

export async function flatten(elements: h[], kit: RenderKit, walk: Walk): Promise<h[]> {
  const out: h[] = []
  let text = ''
  const flush = () => {
    if (text) out.push(h.text(text))
    text = ''
  }
  const add = (s: string) => {
    const room = MAX_TEXT - walk.text
    const kept = s.length <= room ? s : s.slice(0, safeCut(s, Math.max(0, room)))
    walk.text += kept.length
    walk.dropped += s.length - kept.length
    text += kept
  }
  // a forward's messages inside a flattened tree are flattened too
  const children = (els: h[], k = kit) => flatten(els, k, walk)
  const stack: unknown[] = Array.isArray(elements) ? elements.slice().reverse() : []
  while (stack.length) {
    const el = stack.pop() as h
    if (!el || typeof el !== 'object') continue
    if (overVisits(walk)) break
    if (el.type === 'text') {
      add(String(el.attrs?.content ?? ''))
      continue
    }
    if (typeof el.type !== 'string' || !el.type) {
      add('[element]')
      continue
    }
    if (el.type === 'br') {
      add('\n')
      continue
    }
    const media = await renderOne(el, kit, children, MEDIA_RENDERERS)
    if (media) {
      flush()
      out.push(...[media].flat())
    } else if (Array.isArray(el.children) && el.children.length) {
      // formatting (and any wrapper) gives way to what it holds
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i])
    } else {
      flush()
      out.push(...[await renderOne(el, kit, noChildren, [(e, _k, c) => renderOther(e, c)]) ?? []].flat())
    }
  }
  flush()
  return out
}
