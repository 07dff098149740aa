// UTF-16 surrogate pairs: no cut, page or slice may fall between the two halves.

export const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
export const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** True when `index` falls between the two halves of a surrogate pair. */
export function splitsSurrogatePair(text: string, index: number): boolean {
  return index > 0 && index < text.length && isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index))
}

/** `index`, moved back one unit when cutting there would split a pair. */
export function safeCut(text: string, index: number): number {
  return splitsSurrogatePair(text, index) ? index - 1 : index
}

/** Units of the code point starting at `index` (1 or 2). */
export function codePointLength(text: string, index: number): number {
  return isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1
}
