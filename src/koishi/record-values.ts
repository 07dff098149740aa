// A part's rows as minato stores them (part-records.ts): 'string' fields %XX-encoded so equality
// is exact on every driver, and every row, `where` and patch checked against the table's spec
// before the database sees it, each problem named with its field.
import type { RecordField, RecordTableSpec } from '../part/records'

/** A 'string' field's longest stored form (and the runtime column's): with the runtime, within InnoDB's 3072-byte key */
export const STRING_CHARS = 255

/** Thrown for every failure of a part's table: the table's name, what was asked, why (the driver's words). */
export class RecordTableError extends Error {
  override name = 'RecordTableError'
}

// MySQL's default collation (utf8mb4_general_ci) makes `U1` and `u1`, or `é` and `e`, equal, and
// pads with spaces ('a' = 'a '); SQLite's queries stop at a NUL. So upper-case letters, `%`, space,
// control and non-ASCII characters are stored as %XX of their UTF-8 bytes: what is left compares
// exactly under any collation. Narrower than the budget key's set, so ASCII ids stay readable.
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`
export const encoded = (s: string) => s.replace(/[^\x21-\x24\x26-\x40\x5b-\x7e]/gu, c => [...Buffer.from(c)].map(hex).join(''))
export function decoded(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    // not written by kotodama (a hand-edited row): as it is
    return s
  }
}

// SQLite cuts a text at its first NUL: NUL (and `%`, so it reads back) as %XX, the rest as written
const textStored = (s: string) => s.replace(/[%\0]/g, c => hex(c.charCodeAt(0)))
const textRead = (s: string) => s.replace(/%(25|00)/g, (_, x) => x === '25' ? '%' : '\0')

/** The column minato declares for each kind ('text' and 'json' unbounded: MySQL's `text` stops at 64 KiB). */
export function columnOf(kind: RecordField): any {
  switch (kind) {
    case 'string': return { type: 'string', length: STRING_CHARS }
    case 'text': return { type: 'text', length: 0xffffffff }
    case 'json': return { type: 'json', length: 0xffffffff }
    case 'double': return 'double'
    case 'integer': return { type: 'integer', length: 8 }
  }
}

/** Checks the spec itself once: its name, its fields, its primary. */
export function specProblem(spec: RecordTableSpec<any>): string | undefined {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(spec.name ?? '')) return `name ${JSON.stringify(spec.name)} is not 1 to 41 of a-z, 0-9, _`
  const fields = Object.entries(spec.fields ?? {})
  if (!fields.length) return 'it has no fields'
  for (const [name, kind] of fields) {
    if (name === 'runtime') return 'field "runtime" is the table\'s own (the runtime\'s key)'
    if (!/^[a-z_][a-z0-9_]*$/i.test(name)) return `field ${JSON.stringify(name)} is not a plain name`
    if (!columnOf(kind as RecordField)) return `field ${name}: kind ${JSON.stringify(kind)} is not string, text, double, integer or json`
  }
  const primary = spec.fields[spec.primary]
  if (primary !== 'string' && primary !== 'integer') return `primary ${JSON.stringify(spec.primary)} is not a string or integer field`
}

/** One field's value as stored; throws with the field's path when it cannot be. */
function storedValue(kind: RecordField, path: string, v: unknown): unknown {
  switch (kind) {
    case 'string': {
      if (typeof v !== 'string') throw new RecordTableError(`${path} is ${typeof v}, not a string`)
      const s = encoded(v)
      if (s.length > STRING_CHARS) {
        throw new RecordTableError(`${path} is ${s.length} characters as stored (upper case, spaces and non-ASCII take 3 per byte); at most ${STRING_CHARS}`)
      }
      return s
    }
    case 'text':
      if (typeof v !== 'string') throw new RecordTableError(`${path} is ${typeof v}, not a string`)
      return textStored(v)
    case 'double':
    case 'integer':
      if (typeof v !== 'number' || !Number.isFinite(v) || (kind === 'integer' && !Number.isSafeInteger(v))) {
        throw new RecordTableError(`${path} is ${JSON.stringify(v) ?? typeof v}, not ${kind === 'integer' ? 'an integer' : 'a finite number'}`)
      }
      return v
    case 'json':
      if (v === undefined) throw new RecordTableError(`${path} is undefined`)
      return v
  }
}

/** `values` (a row, a patch or a where) as stored; `all`: every field of the spec must be there. */
export function storedFields(spec: RecordTableSpec<any>, part: 'row' | 'patch' | 'where', values: object, all = false): Record<string, unknown> {
  if (!values || typeof values !== 'object') throw new RecordTableError(`the ${part} is not an object`)
  const out: Record<string, unknown> = {}
  for (const [name, v] of Object.entries(values)) {
    const kind: RecordField | undefined = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined
    if (!kind) throw new RecordTableError(`${part}.${name} is not a field of the table`)
    // a `where` compares in the database: text and JSON would compare under its collation
    if (part === 'where' && (kind === 'text' || kind === 'json')) {
      throw new RecordTableError(`${part}.${name} is ${kind}: a where names string, integer or double fields`)
    }
    out[name] = storedValue(kind, `${part}.${name}`, v)
  }
  if (all) for (const name of Object.keys(spec.fields)) if (!(name in out)) throw new RecordTableError(`${part}.${name} is missing`)
  return out
}

/** A stored row as the part wrote it (the runtime column left out). */
export function rowOf<R>(spec: RecordTableSpec<R>, stored: any): R {
  const row: any = {}
  for (const [name, kind] of Object.entries(spec.fields)) {
    const v = stored[name]
    row[name] = typeof v !== 'string' ? v : kind === 'string' ? decoded(v) : kind === 'text' ? textRead(v) : v
  }
  return row
}
