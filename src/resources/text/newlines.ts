// Finding and counting '\n' in a file's bytes and in decoded text (the paging of text files).

export const NL = 10

/** Byte just after the count-th '\n' in bytes[0, n), or -1. */
export function nthNewlineEnd(bytes: Buffer, n: number, count: number): number {
  const view = bytes.subarray(0, n)
  let nl = -1
  for (let seen = 0; seen < count; seen++) {
    nl = view.indexOf(NL, nl + 1)
    if (nl < 0) return -1
  }
  return nl + 1
}

export function countByte(bytes: Buffer, n: number, byte: number): number {
  const view = bytes.subarray(0, n)
  let count = 0
  for (let at = view.indexOf(byte); at >= 0; at = view.indexOf(byte, at + 1)) count++
  return count
}

export function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}
