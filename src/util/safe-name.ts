const PLAIN = /^[A-Za-z0-9_-]+$/

/** A file-system safe, reversible name for any id: keeps [A-Za-z0-9_-], escapes the rest as %XX. */
export function safeName(id: string): string {
  // most ids are plain, and plain ids are their own name: asked several times on every turn (people notes)
  if (PLAIN.test(id)) return id
  const out = Buffer.from(id, 'utf8').reduce((s, b) => {
    const c = String.fromCharCode(b)
    return s + (/[A-Za-z0-9_-]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0'))
  }, '')
  return out || '%00'
}

/** The inverse of `safeName` (%XX escapes of UTF-8 bytes; `%00` is the empty name). */
export function fromSafeName(name: string): string {
  if (name === '%00') return ''
  const bytes: number[] = []
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '%') {
      bytes.push(parseInt(name.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(name.charCodeAt(i))
  }
  return Buffer.from(bytes).toString('utf8')
}
