// The upkeep section of a profile (SPEC §26): whether the mind looks back over each conversation
// once a day and proposes changes to its notes, when, with which model, and who decides on them.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import { wholeFrom } from '../config/section'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export type Review = 'owner' | 'auto'

export interface UpkeepConfig {
  enabled: boolean
  /** HH:MM, local time of budgets.timezone, once a day */
  at: string
  /** a chat model of `models`; '': the profile's model */
  model: string
  /** owner: changes wait on the console page; auto: applied at once */
  review: Review
  /** changes proposed per runtime per day (budgets.timezone's day) */
  maxChanges: number
  /** prompt tokens one conversation's run may spend before it stops (docs/upkeep.md) */
  maxTokens: number
}

export const DEFAULT_UPKEEP: Readonly<UpkeepConfig> = { enabled: false, at: '04:00', model: '', review: 'owner', maxChanges: 20, maxTokens: 60_000 }

export const AT = /^([01]\d|2[0-3]):[0-5]\d$/

const CHECKS: Record<keyof UpkeepConfig, FieldCheck> = {
  enabled: v => typeof v === 'boolean' ? undefined : 'must be true or false',
  at: v => typeof v === 'string' && AT.test(v) ? undefined : 'must be a time of day, HH:MM (e.g. 04:00)',
  model: (v, c) => {
    if (typeof v !== 'string') return 'must be a model id or empty'
    if (!v) return undefined
    if (!c.hasModel(v)) return `names unknown model "${v}"`
    const kind = c.kindOf?.(v)
    return kind && kind !== 'chat' ? `names model "${v}", which is not a chat model` : undefined
  },
  review: v => v === 'owner' || v === 'auto' ? undefined : 'must be owner or auto',
  maxChanges: wholeFrom(0, 1000),
  // a run needs room for its prompt and one page of messages
  maxTokens: wholeFrom(4_000, 2_000_000),
}

function schema(): Schema<any, UpkeepConfig> {
  const d = DEFAULT_UPKEEP
  return Schema.object({
    enabled: Schema.boolean().default(d.enabled),
    at: Schema.string().default(d.at),
    model: Schema.string().default(d.model),
    review: Schema.union(['owner', 'auto']).default(d.review),
    maxChanges: Schema.number().default(d.maxChanges),
    maxTokens: Schema.number().default(d.maxTokens),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, UpkeepConfig>
}

export const upkeepSection: PartSection<UpkeepConfig> = { key: 'upkeep', default: DEFAULT_UPKEEP, schema, checks: CHECKS }
