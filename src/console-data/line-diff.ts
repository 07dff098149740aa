// A line diff for the console's review of a change (SPEC §26): what a proposed text keeps, removes
// and adds against the file as it is. Notes are small; past MAX_CELLS the whole old text is shown
// removed and the new one added rather than spending the page's time on a longest common subsequence.

export interface DiffLine {
  op: '+' | '-' | ' '
  text: string
}

const MAX_CELLS = 4_000_000

/** The lines of `text`, a last newline ending the last line rather than opening an empty one. */
export function linesOf(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

export const added = (text: string): DiffLine[] => linesOf(text).map(t => ({ op: '+', text: t }))
export const removed = (text: string): DiffLine[] => linesOf(text).map(t => ({ op: '-', text: t }))

/** `before` → `after`, line by line, unchanged lines kept as context. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = linesOf(before)
  const b = linesOf(after)
  if (a.length * b.length > MAX_CELLS) return [...removed(before), ...added(after)]
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
  }
  const out: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i++] })
      j++
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ op: '-', text: a[i++] })
    else out.push({ op: '+', text: b[j++] })
  }
  return out
}
