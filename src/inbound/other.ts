// What no other renderer knows (SPEC §19 "other elements: `[<type>]` with their text"). Koishi's
// standard text elements (Satori's element list: text, at, sharp, a, formatting, br, p, message,
// quote) stay elements with only their own attributes; anything else reads `[poke]`, `[music: title]`:
// its type and its text, never its attributes, so no platform link (an `mface`'s gif, a `music`
// segment's audio url) reaches the model.
import h from '@satorijs/element'
import type { RenderChildren } from './kit'
import { label } from './media'
import { withoutUrls } from '../util/without-urls'

/** Satori's standard elements and the attributes of each that the model may read */
const STANDARD = new Map<string, readonly string[]>([
  ['at', ['id', 'name', 'role', 'type']], ['sharp', ['id', 'name']], ['a', ['href']], ['quote', ['id', 'name']],
  ...['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'del', 'spl', 'code', 'sup', 'sub', 'br', 'p', 'message'].map(t => [t, []] as [string, string[]]),
])
/** attributes that are an element's text where it has no children */
const TEXT_ATTRS = ['title', 'summary', 'name', 'text', 'content']

/** Synchronous for an element without children (most are text): a message's render costs no extra turns of the event loop. */
export function renderOther(el: h, children: RenderChildren): h | h[] | Promise<h | h[]> {
  if (el.type === 'text') return typeof el.attrs?.content === 'string' ? el : h.text(String(el.attrs?.content ?? ''))
  return el.children?.length ? children(el.children).then(kids => other(el, kids)) : other(el, [])
}

function other(el: h, kids: h[]): h | h[] {
  const keep = STANDARD.get(el.type)
  if (keep) return h(el.type, attrsOf(el, keep), kids)
  const type = label(String(el.type ?? '').replace(/[^\w.:-]+/g, ''), 32) ?? 'element'
  if (kids.some(k => k.type !== 'text')) return [h.text(`[${type}: `), ...kids, h.text(']')]
  const own = kids.map(k => String(k.attrs.content ?? '')).join('')
  const text = [own, ...TEXT_ATTRS.map(k => el.attrs?.[k])].map(v => label(typeof v === 'string' ? withoutUrls(v, '') : v, 200)).find(Boolean)
  return h.text(text ? `[${type}: ${text}]` : `[${type}]`)
}

function attrsOf(el: h, keep: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of keep) {
    const v = el.attrs?.[k]
    if (k === 'href') {
      // a link a person wrote, not the platform's; only the web's schemes
      if (typeof v === 'string' && /^(https?:|mailto:)/i.test(v) && v.length <= 2000) out.href = v
    } else if ((typeof v === 'string' && v.length <= 200) || typeof v === 'number' || typeof v === 'boolean') out[k] = v
  }
  return out
}
