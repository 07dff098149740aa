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
