// Bounded quotes of model-supplied values in error messages (SPEC §10: at most 200 UTF-16 units
// of any URL or value, then `…`), so an error always fits one tool result.
import { codePointLength, safeCut } from './surrogate'

export const CLIP_UNITS = 200

/** `text`, or its first `max` units (never half a surrogate pair) and `…`. */
export function clip(text: string, max = CLIP_UNITS): string {
  const s = String(text)
  return s.length <= max ? s : s.slice(0, safeCut(s, max)) + '…'
}

/**
 * `text` as a JSON string literal holding at most `max` units of escaped content, then `…`:
 * escapes count, so 200 control characters cannot grow into 1,200 units.
 */
export function quote(text: string, max = CLIP_UNITS): string {
  const s = String(text)
  const whole = JSON.stringify(s)
  if (whole.length <= max + 2) return whole
  let body = ''
  for (let i = 0; i < s.length;) {
    const n = codePointLength(s, i)
    const piece = JSON.stringify(s.slice(i, i + n)).slice(1, -1)
    if (body.length + piece.length > max) break
    body += piece
    i += n
  }
  return `"${body}…"`
}
