// A console form's Schema as plain data: its fields' types, defaults, roles and texts (zh-CN and
// en-US), without the ids schemastery numbers each node with, so two forms built apart compare equal.
import type Schema from 'schemastery'

export function schemaShape(s: Schema | undefined): unknown {
  if (!s) return undefined
  const meta = s.meta ?? {}
  return {
    type: s.type,
    ...'value' in s && s.value !== undefined ? { value: s.value } : {},
    ...meta.default !== undefined ? { default: meta.default } : {},
    ...meta.description !== undefined ? { description: meta.description } : {},
    ...meta.role !== undefined ? { role: meta.role } : {},
    ...meta.required ? { required: true } : {},
    ...s.dict ? { dict: Object.fromEntries(Object.entries(s.dict).map(([k, v]) => [k, schemaShape(v)])) } : {},
    ...s.inner ? { inner: schemaShape(s.inner) } : {},
    ...s.list ? { list: s.list.map(schemaShape) } : {},
  }
}

/** The plugin's console form of a profile's section `key` (src/index.ts: Config, with the locales' texts). */
export function profileFormOf(config: Schema, key: string): Schema | undefined {
  return (config as any).dict.profiles.inner.dict[key]
}
