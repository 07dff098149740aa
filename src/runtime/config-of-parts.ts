// The plugin's config with the sections its parts bring (runtime/part-list.ts): the console form
// and the checks the edge reads the config with. Config itself knows no part.
import { configSchemaOf } from '../config/schema'
import type { ConfigSection } from '../config/section'
import type { Config } from '../config/types'
import { checkConfigOf, type CheckedConfig } from '../config/validate'
import { PARTS } from './part-list'

export const PART_SECTIONS: readonly ConfigSection<unknown>[] = PARTS.flatMap(p => p.section ? [p.section as ConfigSection<unknown>] : [])

export const configSchema = configSchemaOf(PART_SECTIONS)

export function checkConfig(config: Config): CheckedConfig {
  return checkConfigOf(config, PART_SECTIONS)
}

/** The values of the parts' secret fields (web.apiKey) in every profile: the service masks them (SPEC §10). */
export function partSecrets(config: Config): string[] {
  const at = (o: unknown, path: string) => path.split('.').reduce<any>((v, k) => v?.[k], o)
  return (config.profiles ?? []).flatMap(p => PART_SECTIONS.flatMap(s => (s.secrets ?? []).map(path => at((p as any)?.[s.key], path))))
    .filter((v): v is string => typeof v === 'string')
}
