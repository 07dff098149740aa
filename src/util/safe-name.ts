/** A file-system safe, reversible name for any id: keeps [A-Za-z0-9_-], escapes the rest as %XX. */
export function safeName(id: string): string {
  const out = Buffer.from(id, 'utf8').reduce((s, b) => {
    const c = String.fromCharCode(b)
    return s + (/[A-Za-z0-9_-]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0'))
  }, '')
  return out || '%00'
}
