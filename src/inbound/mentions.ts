// Chat front-ends that send plain text (the console's sandbox, some bridges) cannot write an <at>
// element: the bot's display name written as `@Name`, or at the start of a message, counts as a
// mention there (SPEC §12).

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const AFTER = '(?=$|[\\s,，.。:：;；!！?？~、])'

export function namesBot(text: string, name: string | undefined): boolean {
  const n = name?.trim()
  if (!n) return false
  const e = escape(n)
  return new RegExp(`(^|\\s)@${e}${AFTER}`, 'i').test(text) || new RegExp(`^\\s*${e}${AFTER}`, 'i').test(text)
}

/** Elements whose content is the message's own: an `<at>` or a name inside them addresses the bot (SPEC §22). */
const FORMATTING = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'del', 'spl', 'code', 'sup', 'sub', 'p', 'span', 'a'])

/**
 * Whether a message (its elements as the adapter gave them) mentions the bot: an `<at>` of it or its
 * name written out, at the top level or inside plain formatting only. What a forward, a quote or a
 * `<message>` holds is someone else's words: it mentions nobody. Walked without recursion.
 */
export function mentionsBot(elements: unknown, selfId: string, botName: string | undefined): boolean {
  if (!Array.isArray(elements)) return false
  let text = ''
  const stack: unknown[] = [...elements].reverse()
  // bounded: a message of nested formatting is looked at up to this many elements
  for (let seen = 0; stack.length && seen < 20_000; seen++) {
    const el = stack.pop() as { type?: unknown; attrs?: Record<string, any>; children?: unknown[] } | undefined
    if (!el || typeof el !== 'object') continue
    if (el.type === 'text') text += el.attrs?.content ?? ''
    else if (el.type === 'at') {
      if (String(el.attrs?.id ?? '') === selfId) return true
    } else if (typeof el.type === 'string' && FORMATTING.has(el.type) && Array.isArray(el.children)) {
      for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i])
    }
  }
  return namesBot(text, botName)
}
