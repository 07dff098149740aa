// What the config check found, told the owner (SPEC §1): each problem in the log with its field
// path, and the profiles that did not start with their reasons (the console lists them).
import type { Config, ProfileConfig } from '../config/types'
import type { CheckedConfig } from '../config/validate'
import type { Logger } from '../util/logger'

export interface NotStarted {
  profile: ProfileConfig
  problems: string[]
}

export function logProblems(checked: CheckedConfig, log: Logger): void {
  for (const p of checked.problems) {
    const who = p.profile === undefined ? '' : p.leftOut ? `profile "${p.profile}": ` : `profile "${p.profile}" does not start: `
    log.warn('%sconfig %s %s', who, p.path, p.message)
  }
}

/** The config's profiles that did not start, each with why (the log's lines: field path and problem). */
export function notStarted(config: Config, checked: CheckedConfig): NotStarted[] {
  const out = new Map<string, NotStarted>()
  for (const p of checked.problems) {
    if (p.index === undefined || p.leftOut) continue
    const profile = config.profiles?.[p.index]
    if (!profile?.id || checked.profiles.some(q => q.id === profile.id)) continue
    if (!out.has(profile.id)) out.set(profile.id, { profile, problems: [] })
    out.get(profile.id)!.problems.push(`config ${p.path} ${p.message}`)
  }
  return [...out.values()]
}
