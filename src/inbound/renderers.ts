// The renderers of an incoming message's elements in the order they are asked (SPEC §19), and the
// one call that asks them (render.ts walks a message with it, flat.ts a flattened one).
import h from '@satorijs/element'
import { renderCard } from './card'
import { renderFace } from './face'
import { renderFile } from './file'
import { renderForward } from './forward'
import { renderImage } from './image'
import type { RenderChildren, RenderKit, Renderer } from './kit'
import { renderOther } from './other'
import { renderSticker } from './sticker'
import { renderVideo } from './video'
import { renderVoice } from './voice'

/** The renderers of what is more than its children (media, faces, cards, forwards). A sticker is an image too, so it is asked first. */
export const MEDIA_RENDERERS: Renderer[] = [
  el => renderCard(el),
  el => renderFace(el),
  (el, kit) => renderSticker(el, kit),
  (el, kit) => renderImage(el, kit),
  (el, kit) => renderVoice(el, kit),
  (el, kit) => renderVideo(el, kit),
  (el, kit) => renderFile(el, kit),
  (el, kit, children) => renderForward(el, kit, children),
]

/** Asked in order; the first answer counts. */
export const RENDERERS: Renderer[] = [...MEDIA_RENDERERS, (el, _kit, children) => renderOther(el, children)]

type Rendered = h | h[] | undefined

/**
 * Renders `el` through `renderers` from `from` on: the first answer, or undefined when none knows it; a
 * throwing renderer reads `[type]`. Synchronous while the renderers are (a text element costs no turn
 * of the event loop).
 */
export function renderOne(el: h, kit: RenderKit, children: RenderChildren, renderers = RENDERERS, from = 0): Rendered | Promise<Rendered> {
  const failed = () => h.text(`[${el.type.slice(0, 32)}]`)
  for (let i = from; i < renderers.length; i++) {
    let r: ReturnType<Renderer>
    try {
      r = renderers[i](el, kit, children)
    } catch {
      return failed()
    }
    if (r instanceof Promise) return r.then(v => v === undefined ? renderOne(el, kit, children, renderers, i + 1) : v, failed)
    if (r !== undefined) return r
  }
  return undefined
}
