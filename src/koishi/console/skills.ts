// The console's skills view (SPEC §24): what a runtime's profile may use and what was left out.
// Authority 4, as the page's other listeners. A running runtime answers with the list it loaded at
// its start (what the mind is shown); otherwise the profile's folders are read now, without logging.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { sectionOf } from '../../part/section-config'
import { allowedSkills, skillsPart } from '../../skills/part'
import { skillsLook, type SkillsLook } from '../../console-data/skills'
import { placeOf } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/skills'(profile: string, bot: string): Promise<SkillsLook>
  }
}

const AUTHORITY = 4
const quiet = { debug() {}, info() {}, warn() {}, error() {} }

export function registerSkills(ctx: Context) {
  ctx.console.addListener('kotodama/skills', async (profile, bot) => {
    const p = await placeOf(ctx, profile, bot)
    if (p.runtime) return skillsLook(p.runtime.part(skillsPart)?.view(), true)
    const config = sectionOf(skillsPart.section, p.profile)
    return skillsLook(config.dirs.length ? await allowedSkills(config, quiet) : undefined, false)
  }, { authority: AUTHORITY })
}
