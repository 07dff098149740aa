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
