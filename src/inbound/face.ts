// A QQ face as the model reads it (SPEC §19): `[face: 斜眼笑]`, or `[face 178]` without a name. The
// OneBot adapter (lib/index.js adaptMessage) gives `<face id name platform>` with the face's picture
// on the web as a child `<img>`: that picture is neither registered nor shown.
import h from '@satorijs/element'
import { label } from './media'

export function renderFace(el: h): h | undefined {
  if (el.type !== 'face') return undefined
  const name = label(el.attrs?.name, 40)
  if (name) return h.text(`[face: ${name}]`)
  const id = label(el.attrs?.id, 20)
  return h.text(id ? `[face ${id}]` : '[face]')
}
