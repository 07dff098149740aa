// The elements of an incoming message as the model reads them (SPEC §19): one renderer per
// element kind (a file of its own each), media registered as assets, and no platform link left
// in what no renderer knows.
import { h } from 'koishi'
import type { AssetStore } from '../../resources/schemes/asset-store'
import { MEDIA_ELEMENTS } from '../../util/elements'
import { renderCard } from './card'

/** A message inside a forward, as the adapter returned it. */
export interface ForwardedMessage {
  author: string
  elements: h[]
  at?: number
}

/** What renderers may use: the runtime's assets, and the platform's help where it has some. */
export interface RenderKit {
  assets: AssetStore
  /** the messages of a forward, fetched through the adapter; undefined when it cannot */
  forward?(id: string): Promise<ForwardedMessage[] | undefined>
}

/** Renders one element; undefined: not this renderer's kind (the next one is asked). */
export type Renderer = (el: h, kit: RenderKit, children: (els: h[]) => Promise<h[]>) => Promise<h | h[] | undefined> | h | h[] | undefined

const RENDERERS: Renderer[] = [
  el => renderCard(el),
  (el, kit) => MEDIA_ELEMENTS.has(el.type) ? storedMedia(el, kit.assets) : undefined,
]

export async function renderElements(elements: h[], kit: RenderKit): Promise<h[]> {
  const out: h[] = []
  const children = (els: h[]) => renderElements(els, kit)
  for (const el of elements) {
    let done = false
    for (const render of RENDERERS) {
      const r = await render(el, kit, children)
      if (r === undefined) continue
      if (Array.isArray(r)) out.push(...r)
      else out.push(r)
      done = true
      break
    }
    if (done) continue
    const attrs = withoutLinks(el.attrs)
    if (el.children?.length) out.push(h(el.type, attrs, await children(el.children)))
    else out.push(attrs === el.attrs ? el : h(el.type, attrs))
  }
  return out
}

async function storedMedia(el: h, assets: AssetStore): Promise<h | undefined> {
  const src = el.attrs?.src
  if (typeof src !== 'string' || !src) return undefined
  const { src: _, url: __, ...rest } = el.attrs
  try {
    const id = await assets.register(src, { mediaType: rest.type ?? rest.mime, filename: rest.filename ?? rest.title ?? rest.file }, { fetchNow: true })
    return h(el.type === 'image' ? 'img' : el.type, { src: `asset://${id}`, ...pick(rest) })
  } catch {
    return h.text(`[${el.type} that could not be stored]`)
  }
}

const LINK = /^\s*(https?|file|ftp):\/\//i

/**
 * An element the edge does not know may carry a platform link in an attribute (LLOneBot's
 * `mface` has its gif's `url`): such attributes are left out, so a platform URL never reaches the
 * model (SPEC §19). The element itself stays, with its other attributes.
 */
function withoutLinks(attrs: Record<string, any> | undefined): Record<string, any> {
  if (!attrs || !Object.values(attrs).some(v => typeof v === 'string' && LINK.test(v))) return attrs ?? {}
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => !(typeof v === 'string' && LINK.test(v))))
}

/** Keeps only small descriptive attributes of media elements. */
function pick(attrs: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {}
  for (const k of ['title', 'filename', 'width', 'height', 'duration', 'summary']) {
    if (attrs[k] !== undefined && String(attrs[k]).length < 200) out[k] = attrs[k]
  }
  return out
}
