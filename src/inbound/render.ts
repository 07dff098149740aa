// The elements of an incoming message as the model reads them (SPEC §19): one renderer per element
// kind (a file of its own each), media registered as assets, no platform link, and nothing dropped
// silently. Malformed input (missing or odd attributes, giant values) reads as a short text;
// renderElements never throws. A tree deeper than MAX_DEPTH is flattened to its text and media
// (flat.ts, SPEC §22: bounded, nothing lost).
import h from '@satorijs/element'
import { flatten, newWalk, overVisits, walkNote, type Walk } from './flat'
import type { RenderKit } from './kit'
import { renderOne } from './renderers'

export type { ExpansionBudget, ForwardedMessage, RenderChildren, RenderKit, Renderer } from './kit'

/** elements inside elements (forwards included) deeper than this are flattened to their text and media */
const MAX_DEPTH = 24

export async function renderElements(elements: h[], kit: RenderKit): Promise<h[]> {
  const walk = newWalk()
  const out = await render(elements, kit, 0, walk)
  const note = walkNote(walk)
  return note ? [...out, note] : out
}

async function render(elements: h[], kit: RenderKit, depth: number, walk: Walk): Promise<h[]> {
  if (!Array.isArray(elements)) return []
  if (depth > MAX_DEPTH) return flatten(elements, kit, walk)
  const out: h[] = []
  const children = (els: h[], k = kit) => render(els, k, depth + 1, walk)
  for (const el of elements) {
    // not an element at all (a malformed decode): nothing a person sent
    if (!el || typeof el !== 'object') continue
    if (overVisits(walk)) break
    if (typeof el.type !== 'string' || !el.type) {
      out.push(h.text('[element]'))
      continue
    }
    const pending = renderOne(el, kit, children)
    const r = pending instanceof Promise ? await pending : pending
    if (Array.isArray(r)) out.push(...r)
    else if (r) out.push(r)
  }
  return out
}
