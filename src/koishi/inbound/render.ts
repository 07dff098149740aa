// The elements of an incoming message as the model reads them (SPEC §19): one renderer per element
// kind (a file of its own each), media registered as assets, no platform link, and nothing dropped
// silently. Malformed input (missing or odd attributes, giant values, deep nesting) reads as a short
// text; renderElements never throws.
import { h } from 'koishi'
import { renderCard } from './card'
import { renderFace } from './face'
import { renderFile } from './file'
import { renderForward } from './forward'
import { renderImage } from './image'
import type { RenderKit, Renderer } from './kit'
import { renderOther } from './other'
import { renderSticker } from './sticker'
import { renderVideo } from './video'
import { renderVoice } from './voice'

export type { ExpansionBudget, ForwardedMessage, RenderChildren, RenderKit, Renderer } from './kit'

/** Asked in order; the first answer counts. A sticker is an image too, so it is asked first. */
const RENDERERS: Renderer[] = [
  el => renderCard(el),
  el => renderFace(el),
  (el, kit) => renderSticker(el, kit),
  (el, kit) => renderImage(el, kit),
  (el, kit) => renderVoice(el, kit),
  (el, kit) => renderVideo(el, kit),
  (el, kit) => renderFile(el, kit),
  (el, kit, children) => renderForward(el, kit, children),
  (el, _kit, children) => renderOther(el, children),
]

/** elements inside elements (forwards included) deeper than this read as one short text */
const MAX_DEPTH = 24

export function renderElements(elements: h[], kit: RenderKit): Promise<h[]> {
  return render(elements, kit, 0)
}

async function render(elements: h[], kit: RenderKit, depth: number): Promise<h[]> {
  if (!Array.isArray(elements)) return []
  if (depth > MAX_DEPTH) return elements.length ? [h.text('[nested too deeply]')] : []
  const out: h[] = []
  const children = (els: h[], k = kit) => render(els, k, depth + 1)
  for (const el of elements) {
    // not an element at all (a malformed decode): nothing a person sent
    if (!el || typeof el !== 'object') continue
    if (typeof el.type !== 'string' || !el.type) {
      out.push(h.text('[element]'))
      continue
    }
    try {
      for (const renderer of RENDERERS) {
        // awaited only when it is a promise: a text element costs no turn of the event loop
        const pending = renderer(el, kit, children)
        const r = pending instanceof Promise ? await pending : pending
        if (r === undefined) continue
        if (Array.isArray(r)) out.push(...r)
        else out.push(r)
        break
      }
    } catch {
      out.push(h.text(`[${el.type.slice(0, 32)}]`))
    }
  }
  return out
}
