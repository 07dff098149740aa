// Skills as a part (SPEC §24): the folders of `skills.dirs` read once when the runtime starts
// (docs/skills.md: why not again before each turn), the prompt's list, and skill://.
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { Logger } from '../util/logger'
import { skillsSection, type SkillsConfig } from './config'
import { loadSkills, type LeftOutSkill, type Skill } from './library'
import { skillScheme } from './scheme'
import { skillsSection as promptSection } from './section'

/** What the console shows: the skills this profile may use, and those left out with why. */
export interface SkillsView {
  skills: readonly Skill[]
  left: readonly LeftOutSkill[]
}

const NOT_ALLOWED = 'not in skills.allow'

/** The skills of `config` this profile may use, and those left out (broken ones logged, once each). */
export async function allowedSkills(config: SkillsConfig, logger: Logger): Promise<SkillsView> {
  const set = await loadSkills(config.dirs, logger)
  const all = config.allow.includes('*')
  const ok = set.skills.filter(s => all || config.allow.includes(s.name))
  return { skills: ok, left: [...set.left, ...set.skills.filter(s => !ok.includes(s)).map(s => ({ file: s.file, why: NOT_ALLOWED }))] }
}

export class SkillsPart implements RuntimePart {
  readonly name = 'skills'
  private allowed = new Map<string, Skill>()
  private left: readonly LeftOutSkill[] = []
  private section = ''

  constructor(private readonly config: SkillsConfig, private readonly logger: Logger) {}

  async start() {
    const { skills, left } = await allowedSkills(this.config, this.logger)
    this.allowed = new Map(skills.map(s => [s.name, s]))
    this.left = left
    this.section = promptSection(skills)
  }

  schemes() {
    return [skillScheme(() => this.allowed)]
  }

  prompt() {
    return this.section ? { section: this.section } : undefined
  }

  view(): SkillsView {
    return { skills: [...this.allowed.values()], left: this.left }
  }
}

export const skillsPart: PartPlugin<SkillsConfig, SkillsPart> = {
  name: 'skills',
  section: skillsSection,
  create(scope) {
    return scope.config.dirs.length ? new SkillsPart(scope.config, scope.logger) : undefined
  },
}
