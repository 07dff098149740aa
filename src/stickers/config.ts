// The stickers section of a profile (SPEC §19): its type, its default (off), its console form with
// texts, and its checks. Image files with optional label files, shared by a profile's runtimes.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface StickerLearnConfig {
  enabled: boolean
  /** claim patterns of the groups where stickers are collected */
  groups: string[]
  /** the same image seen this often ... */
  seenTimes: number
  /** ... within this window */
  windowMinutes: number
  /** at most this many learned per group a day */
  perDay: number
}

export interface StickersConfig {
  enabled: boolean
  /** a folder of images shared by the profile's runtimes; '' : <home>/local/stickers/ */
  dir: string
  /** stickers one turn may send; more are dropped and reported */
  maxPerTurn: number
  /** stickers named in the system prompt (the rest: search) */
  offer: number
  learn: StickerLearnConfig
}

export const DEFAULT_STICKER_LEARN: Readonly<StickerLearnConfig> = { enabled: false, groups: [], seenTimes: 3, windowMinutes: 30, perDay: 20 }
export const DEFAULT_STICKERS: Readonly<StickersConfig> = {
  enabled: false, dir: '', maxPerTurn: 1, offer: 24, learn: DEFAULT_STICKER_LEARN,
}

const isBoolean: FieldCheck = v => typeof v === 'boolean' ? undefined : 'must be true or false'
const wholeNonNegative: FieldCheck = v => Number.isInteger(v) && (v as number) >= 0 ? undefined : 'must be a whole number >= 0'

const CHECKS: Record<string, FieldCheck> = {
  'enabled': isBoolean,
  'dir': v => typeof v === 'string' ? undefined : 'must be a folder path or empty',
  'maxPerTurn': wholeNonNegative,
  'offer': wholeNonNegative,
  'learn.enabled': isBoolean,
  'learn.groups': v => Array.isArray(v) && v.every(g => typeof g === 'string') ? undefined : 'must be a list of claim patterns',
  'learn.seenTimes': wholeNonNegative,
  'learn.windowMinutes': v => typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a number > 0',
  'learn.perDay': wholeNonNegative,
}

function schema(): Schema<any, StickersConfig> {
  const d = DEFAULT_STICKERS
  const learn = DEFAULT_STICKER_LEARN
  return Schema.object({
    enabled: Schema.boolean().default(d.enabled),
    dir: Schema.string().default(d.dir),
    maxPerTurn: Schema.number().default(d.maxPerTurn),
    offer: Schema.number().default(d.offer),
    learn: Schema.object({
      enabled: Schema.boolean().default(learn.enabled),
      groups: Schema.array(Schema.string()).role('table').default([]),
      seenTimes: Schema.number().default(learn.seenTimes),
      windowMinutes: Schema.number().default(learn.windowMinutes),
      perDay: Schema.number().default(learn.perDay),
    }),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, StickersConfig>
}

export const stickersSection: PartSection<StickersConfig> = { key: 'stickers', default: DEFAULT_STICKERS, schema, checks: CHECKS }
