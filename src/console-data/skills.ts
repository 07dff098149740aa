// A runtime's skills as the console page lists them (SPEC §24): name, description and folder of each
// skill the profile may use, and the ones left out with why.
import type { SkillsView } from '../skills/part'

export interface SkillsLook {
  /** false: skills.dirs is empty for this profile */
  on: boolean
  /** true: the folders as the running runtime loaded them at its start; false: read now for the page */
  loaded: boolean
  skills: { name: string; description: string; folder: string }[]
  left: { file: string; why: string }[]
}

export function skillsLook(view: SkillsView | undefined, loaded: boolean): SkillsLook {
  return {
    on: !!view, loaded,
    skills: view?.skills.map(s => ({ name: s.name, description: s.description, folder: s.dir })) ?? [],
    left: view?.left.map(l => ({ ...l })) ?? [],
  }
}
