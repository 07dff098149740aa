// A part's config as its scope holds it: the profile's section under the part's key (checked when
// the config was read, config/validate.ts), or the section's default when the profile has none.
import type { PartSection } from './plugin'

export function sectionOf<C>(section: PartSection<C> | undefined, profile: object): C {
  if (!section) return undefined as C
  const value = (profile as Record<string, unknown>)[section.key]
  return (value ?? section.default) as C
}
