// A QQ face as the model reads it (SPEC §27 "One form per element"): `<face name="斜眼笑"/>`, the form
// send_message takes, or `<face id="178"/>` without a name. A real element, never bracketed text:
// its attributes are escaped when the fact's markup is written, and bounded here to one short line.
// The OneBot adapter (lib/index.js adaptMessage) gives `<face id name platform>` with the face's
// picture on the web as a child `<img>`: that picture is neither registered nor shown.
import h from '@satorijs/element'
import { label } from './media'

/** QQ's face names are a few characters; a longer one is cut */
const NAME_CHARS = 40
const ID_CHARS = 20

export function renderFace(el: h): h | undefined {
  if (el.type !== 'face') return undefined
  const name = label(el.attrs?.name, NAME_CHARS)
  if (name) return h('face', { name })
  const id = label(el.attrs?.id, ID_CHARS)
  return id ? h('face', { id }) : h.text('[face]')
}
