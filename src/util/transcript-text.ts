// Who said what (SPEC §22): only the runtime writes at the start of a line. People's text, names and
// ids pass through here wherever they reach the model, at render time, so facts stored before the
// rule are shown by it too.

/**
 * Every line break a reader (a tokenizer, a terminal, Python's splitlines) may take for one: CRLF,
 * LF, CR, VT, FF, the file/group/record separators, NEL, LINE and PARAGRAPH SEPARATOR.
 */
const BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g
const HAS_BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/
const SPACED_BREAK = /\s*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029])\s*/g

/** `text` with every line after its first indented by two spaces, all line breaks as `\n`. */
export function indentContinuation(text: string): string {
  return HAS_BREAK.test(text) ? text.replace(BREAK, '\n  ') : text
}

/** `text` on one line: each line break, with the spaces around it, one space. */
export function flattenLines(text: string): string {
  return HAS_BREAK.test(text) ? text.replace(SPACED_BREAK, ' ') : text
}

export const NAME_CHARS = 32
/** a channel's name (cross mode's headers) */
export const CHANNEL_NAME_CHARS = 64

/**
 * What a name may not hold: the brackets, parentheses, `#` and `:` of the transcript's lines (and
 * their full-width forms), control characters, line and paragraph separators, bidirectional
 * overrides, and (the `u` flag) lone surrogates.
 */
const NAME_BAD = /[[\]()#:［］（）＃：\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu
/** most names: nothing to look at closer (the hot path) */
const PLAIN_NAME = /^\w+(?: \w+)*$/
const NEEDS_WORK = /[[\]()#:［］（）＃：\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}|\s\s|^\s|\s$|[^ \S]/u

/**
 * A display name as one line of at most `max` characters (code points): the characters of NAME_BAD
 * become spaces (lone surrogates go), runs of spaces one, cut with `…`; an empty result is
 * `fallback` (the user id) under the same rule, else `?`.
 */
export function displayName(name: unknown, fallback?: string, max = NAME_CHARS): string {
  const raw = typeof name === 'string' ? name : typeof name === 'number' ? String(name) : ''
  if (raw && raw.length <= max && (PLAIN_NAME.test(raw) || !NEEDS_WORK.test(raw))) return raw
  // only the start of a giant value is looked at: bounded work
  const s = raw.slice(0, max * 8).replace(/\p{Cs}/gu, '').replace(NAME_BAD, ' ').replace(/\s+/g, ' ').trim()
  if (!s) return fallback !== undefined ? displayName(fallback, undefined, max) : '?'
  const points = Array.from(s)
  return points.length <= max ? s : `${points.slice(0, max - 1).join('').trimEnd()}…`
}

/** what an id may not show as it is: what would end its parentheses or its line, `%` (the escape itself) */
const ID_BAD = /[\s()[\]%\p{Cc}\p{Zl}\p{Zp}\x85]|\p{Cs}/gu
const ID_NEEDS_WORK = /[\s()[\]%\p{Cc}\p{Zl}\p{Zp}\x85]|\p{Cs}/u
/** a longer id is shown cut (platform ids are short; the stored one is never changed) */
const ID_UNITS = 128
/** most ids: shown as they are without a closer look (the hot path) */
const PLAIN_ID = /^[\w.@:+=/-]{0,128}$/

const escapeChar = (c: string) => {
  const code = c.charCodeAt(0)
  return code < 0x100 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : `%u${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/**
 * A platform id (a user's, a message's) as a line shows it: spaces, parentheses, brackets, `%`,
 * controls and line breaks percent-escaped, so no id closes its `(…)` or starts a line. A plain id
 * is itself; the stored id (a key) is never changed.
 */
export function shownId(id: unknown): string {
  const s = typeof id === 'string' ? id : id === undefined || id === null ? '' : String(id)
  if (PLAIN_ID.test(s)) return s
  const cut = s.length > ID_UNITS ? `${s.slice(0, ID_UNITS)}…` : s
  return ID_NEEDS_WORK.test(cut) ? cut.replace(ID_BAD, escapeChar) : cut
}
