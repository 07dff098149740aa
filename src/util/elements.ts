import { h } from 'koishi'

/** Visible text of an element tree: text nodes only (SPEC §4.7). */
export function visibleText(elements: h[]): string {
  let out = ''
  for (const el of elements) {
    if (el.type === 'text') out += el.attrs.content ?? ''
    else if (el.children?.length) out += visibleText(el.children)
  }
  return out
}
