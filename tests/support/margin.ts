// What stands at the start of a line of what the model reads (SPEC §22 "Who said what"): every
// break a reader may take for a line's end counts, not only LF.

/** the line breaks of src/util/transcript-text.ts, written again so a test does not read the code's own constant */
const BREAKS = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/

export function linesOf(text: string): string[] {
  return text.split(BREAKS)
}

/** The lines of `text` that start with one of `forged` (what a person typed, that must never stand at the margin). */
export function atMargin(text: string, forged: string[]): string[] {
  return linesOf(text).filter(l => forged.some(f => l.startsWith(f)))
}

/** Any line break other than LF (they must all be normalised before the model reads them). */
export const OTHER_BREAK = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/
