// A section of a profile that a part brings (docs/architecture.md "Parts"): its default, its console
// form and its checks. Declared here, below the parts, so the config reads the sections it is handed
// (the edge passes the list of parts) without importing any part.
import type Schema from 'schemastery'
import type { ModelKind } from './types'

/** What a field's check may look at beyond its value: the config's other sections (a field naming a model). */
export interface SectionContext {
  /** whether `id` is a model of the config's `models` that passed its checks */
  hasModel(id: string): boolean
  /** the kind of model `id` (SPEC §24); undefined when unknown */
  kindOf?(id: string): ModelKind | undefined
}

/** A check of one field: why the value is bad, or undefined. */
export type FieldCheck = (value: unknown, context: SectionContext) => string | undefined

/** The check of a whole number from `min` to `max`. */
export const wholeFrom = (min: number, max: number): FieldCheck => v =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? undefined : `must be a whole number from ${min} to ${max}`

/**
 * A section of a profile (`profiles[].<key>`). One checking style: a bad field is reported with its
 * path and replaced by its default; the profile still starts.
 */
export interface ConfigSection<C> {
  /** the profile's field, e.g. 'stickers' */
  readonly key: string
  /** the section when the profile has none, and each field's fallback */
  readonly default: C
  /** the console form of the section, with its zh-CN and en-US texts (`.i18n`) */
  schema(): Schema<any, C>
  /** dotted paths inside the section → their checks */
  readonly checks?: Readonly<Record<string, FieldCheck>>
  /**
   * checks across fields, after each field's own: reports a problem at its path inside the section
   * and returns the section as it may start (web: a provider without its baseURL turns search off)
   */
  across?(section: C, report: (path: string, message: string) => void): C
  /** dotted paths of secret fields (an API key): masked in every log line and what the model sees */
  readonly secrets?: readonly string[]
}
