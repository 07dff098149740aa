// The field checks of the config, and the one checking style every section follows: a bad field is
// reported with its path and replaced by its default, and the profile starts (SPEC §1).
import type { FieldCheck, SectionContext } from './section'

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

export const isBoolean: FieldCheck = v => typeof v === 'boolean' ? undefined : 'must be true or false'
export const nonNegative: FieldCheck = v => finite(v) && v >= 0 ? undefined : 'must be a number >= 0'
export const positive: FieldCheck = v => finite(v) && v > 0 ? undefined : 'must be a number > 0'
export const positiveInt: FieldCheck = v => Number.isInteger(v) && (v as number) > 0 ? undefined : 'must be a whole number > 0'
export const wholeNonNegative: FieldCheck = v => Number.isInteger(v) && (v as number) >= 0 ? undefined : 'must be a whole number >= 0'
export const fraction: FieldCheck = v => typeof v === 'number' && v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1'
export const share: FieldCheck = v => typeof v === 'number' && v > 0 && v <= 1 ? undefined : 'must be above 0 and at most 1'
export const nonEmptyString: FieldCheck = v => typeof v === 'string' && v.trim() ? undefined : 'must not be empty'

/** A field that may be left out (its consumer then takes the default). */
export const optional = (check: FieldCheck): FieldCheck => (v, c) => v === undefined ? undefined : check(v, c)

/** A model id from `models`, or '' for none. */
export const knownModelOrNone: FieldCheck = (v, c) => typeof v !== 'string' ? 'must be a model id or empty'
  : !v || c.hasModel(v) ? chatKind(v, c) : `names unknown model "${v}"`

/** A chat model's place (a profile's model, a judge) names no image model (SPEC §24). */
export const chatKind = (v: string, c: SectionContext): string | undefined =>
  c.kindOf?.(v) === 'image' ? `names image model "${v}", which cannot chat` : undefined

export function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<any>((o, k) => o?.[k], obj)
}

function setAt(obj: Record<string, any>, path: string, value: unknown): void {
  const keys = path.split('.')
  const last = keys.pop()!
  let o = obj
  for (const k of keys) o = o[k] = isPlain(o[k]) ? { ...o[k] } : {}
  o[last] = value
}

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** `given` over `defaults`, object fields merged in depth (a section without `learn` keeps the default one). */
function merged(given: unknown, defaults: unknown): unknown {
  if (!isPlain(defaults)) return given === undefined ? defaults : given
  const out: Record<string, unknown> = { ...defaults, ...isPlain(given) ? given : {} }
  for (const [k, d] of Object.entries(defaults)) if (isPlain(d)) out[k] = merged(isPlain(given) ? given[k] : undefined, d)
  return out
}

/** Reports a problem of a field that fell back: its path and why. */
export type Report = (path: string, message: string) => void

/**
 * A section with its defaults filled in; each bad field is reported at `path`.field and replaced by
 * its default's value.
 */
export function fallBack<T>(given: unknown, defaults: T, checks: Readonly<Record<string, FieldCheck>>, path: string,
  report: Report, context: SectionContext): T {
  const section = merged(given, defaults) as Record<string, any>
  for (const [field, check] of Object.entries(checks)) {
    const message = check(at(section, field), context)
    if (!message) continue
    const value = at(defaults, field)
    report(`${path}.${field}`, `${message}; using the default ${JSON.stringify(value)}`)
    setAt(section, field, value)
  }
  return section as T
}
