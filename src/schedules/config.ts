// The schedules section of a profile (SPEC §25): whether the mind may keep promises with the
// `schedule` tool, and the bounds of what members may ask of it.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import { wholeFrom } from '../config/section'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface SchedulesConfig {
  enabled: boolean
  /** open tasks of one conversation */
  perConversation: number
  /** open tasks one person asked for, in one conversation's runtime */
  perUser: number
  /** a repeating task fires no more often than this */
  minIntervalMinutes: number
}

export const DEFAULT_SCHEDULES: Readonly<SchedulesConfig> = { enabled: true, perConversation: 20, perUser: 5, minIntervalMinutes: 60 }

const CHECKS: Record<string, FieldCheck> = {
  enabled: v => typeof v === 'boolean' ? undefined : 'must be true or false',
  perConversation: wholeFrom(0, 1000),
  perUser: wholeFrom(0, 1000),
  // a week at most: a weekly plan must stay possible
  minIntervalMinutes: wholeFrom(1, 10_080),
}

function schema(): Schema<any, SchedulesConfig> {
  const d = DEFAULT_SCHEDULES
  return Schema.object({
    enabled: Schema.boolean().default(d.enabled),
    perConversation: Schema.number().default(d.perConversation),
    perUser: Schema.number().default(d.perUser),
    minIntervalMinutes: Schema.number().default(d.minIntervalMinutes),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, SchedulesConfig>
}

export const schedulesSection: PartSection<SchedulesConfig> = { key: 'schedules', default: DEFAULT_SCHEDULES, schema, checks: CHECKS }
