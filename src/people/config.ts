// The people section of a profile (SPEC §21): a note per person, local://memory/people/<platform>/
// <userId>.md, the present people's shown at a turn's start; its form with texts, and its checks.
import Schema from 'schemastery'
import { isBoolean, positiveInt } from '../config/checks'
import type { ConfigSection } from '../config/section'
import enUS from './config.en-US.yml'
import zhCN from './config.zh-CN.yml'

export interface PeopleConfig {
  enabled: boolean
  /** UTF-16 units of each present person's note shown to the mind */
  noteChars: number
}

export const DEFAULT_PEOPLE: Readonly<PeopleConfig> = { enabled: true, noteChars: 400 }

function schema(): Schema<any, PeopleConfig> {
  return Schema.object({
    enabled: Schema.boolean().default(DEFAULT_PEOPLE.enabled),
    noteChars: Schema.number().default(DEFAULT_PEOPLE.noteChars),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, PeopleConfig>
}

export const peopleSection: ConfigSection<PeopleConfig> = {
  key: 'people', default: DEFAULT_PEOPLE, schema, checks: { enabled: isBoolean, noteChars: positiveInt },
}
