// The skills section of a profile (SPEC §24): host folders of `<name>/SKILL.md` and which of their
// skills this profile may use. No folders (the default): no prompt section, no skill:// scheme.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface SkillsConfig {
  /** host folders each holding `<name>/SKILL.md` */
  dirs: string[]
  /** skill names this profile may use; '*' : all */
  allow: string[]
}

export const DEFAULT_SKILLS: Readonly<SkillsConfig> = { dirs: [], allow: ['*'] }

const strings = (what: string): FieldCheck => v =>
  Array.isArray(v) && v.every(s => typeof s === 'string' && s.trim() !== '') ? undefined : `must be a list of ${what}`

const CHECKS: Record<string, FieldCheck> = {
  dirs: strings('folder paths'),
  allow: strings("skill names or '*'"),
}

function schema(): Schema<any, SkillsConfig> {
  const d = DEFAULT_SKILLS
  return Schema.object({
    dirs: Schema.array(Schema.string()).role('table').default([...d.dirs]),
    allow: Schema.array(Schema.string()).role('table').default([...d.allow]),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, SkillsConfig>
}

export const skillsSection: PartSection<SkillsConfig> = { key: 'skills', default: DEFAULT_SKILLS, schema, checks: CHECKS }
