// The acts section of a profile (SPEC §23): which acts the mind may make and how many a turn.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface ActsConfig {
  /** `<react emoji to/>`: a reaction to a message of this conversation */
  react: boolean
  /** `<poke id/>`: a poke of a member who wrote here */
  poke: boolean
  /** `<unsend id/>`: taking back one of the bot's own messages */
  unsend: boolean
  /** acts one turn may make, all kinds together; more are dropped and reported */
  perTurn: number
}

export const DEFAULT_ACTS: Readonly<ActsConfig> = { react: true, poke: true, unsend: true, perTurn: 3 }

const isBoolean: FieldCheck = v => typeof v === 'boolean' ? undefined : 'must be true or false'

const CHECKS: Record<string, FieldCheck> = {
  react: isBoolean,
  poke: isBoolean,
  unsend: isBoolean,
  perTurn: v => Number.isInteger(v) && (v as number) >= 0 ? undefined : 'must be a whole number >= 0',
}

function schema(): Schema<any, ActsConfig> {
  const d = DEFAULT_ACTS
  return Schema.object({
    react: Schema.boolean().default(d.react),
    poke: Schema.boolean().default(d.poke),
    unsend: Schema.boolean().default(d.unsend),
    perTurn: Schema.number().default(d.perTurn),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, ActsConfig>
}

export const actsSection: PartSection<ActsConfig> = { key: 'acts', default: DEFAULT_ACTS, schema, checks: CHECKS }
