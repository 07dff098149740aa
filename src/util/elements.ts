import h from '@satorijs/element'

/** Elements that carry media in their `src`. */
export const MEDIA_ELEMENTS = new Set(['img', 'image', 'audio', 'video', 'file'])

/** Visible text of an element tree: text nodes only (SPEC §4.7). */
export function visibleText(elements: h[]): string {
  let out = ''
  for (const el of elements) {
    if (el.type === 'text') out += el.attrs.content ?? ''
    else if (el.children?.length) out += visibleText(el.children)
  }
  return out
}
