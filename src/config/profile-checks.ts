// A profile's checks (SPEC §1), in one style: a bad field is reported with its path and replaced by
// its default, and the profile starts. Only what has no safe default stops the profile: its id, its
// model, its claims (a profile that claims nothing serves nothing).
import { patternError } from '../claims/match'
import {
  chatKind, fallBack, fraction, isBoolean, knownModelOrNone, nonEmptyString, nonNegative, optional, positive, positiveInt, share, wholeNonNegative, type Report,
} from './checks'
import {
  DEFAULT_ATTACHMENT, DEFAULT_CONTEXT, DEFAULT_HISTORY, DEFAULT_MAX_STEPS, DEFAULT_STALE_SECONDS,
  DEFAULT_TIMING, DEFAULT_TOOLS, DEFAULT_TYPING,
} from './defaults'
import type { ConfigSection, FieldCheck, SectionContext } from './section'
import type { ProfileConfig } from './types'

/** A problem that stops the profile: no field of it can fall back. */
export type Stop = (path: string, message: string) => void

/** The core's own sections: checked as the parts' are, but their form is the core schema's. */
type CoreSection = Pick<ConfigSection<unknown>, 'key' | 'default' | 'checks'>

const CORE: CoreSection[] = [
  {
    key: 'typing', default: DEFAULT_TYPING,
    checks: { baseDelay: nonNegative, charPerSecond: nonNegative, minDelay: nonNegative, maxDelay: nonNegative, jitter: fraction },
  },
  {
    key: 'attachment', default: DEFAULT_ATTACHMENT,
    checks: {
      visionModel: knownModelOrNone, recentTurns: positiveInt, maxImageCount: nonNegative, maxImageBytes: nonNegative,
      maxTotalImageBytes: nonNegative, maxImageDimension: nonNegative, maxAssetBytes: optional(wholeNonNegative), keepDays: optional(nonNegative),
    },
  },
  { key: 'context', default: DEFAULT_CONTEXT, checks: { maxMessages: positiveInt, maxChars: positiveInt, trimTo: optional(share) } },
  {
    key: 'wake', default: { staleAfterSeconds: DEFAULT_STALE_SECONDS, judge: '' },
    checks: { staleAfterSeconds: optional(nonNegative), judge: knownModelOrNone },
  },
  { key: 'tools', default: DEFAULT_TOOLS, checks: { searchAbove: optional(wholeNonNegative) } },
  {
    key: 'timing', default: DEFAULT_TIMING,
    checks: {
      debounceMs: optional(nonNegative), debounceMaxMs: optional(nonNegative), cooldownSeconds: optional(nonNegative),
      'perUser.count': optional(wholeNonNegative), 'perUser.seconds': optional(nonNegative), maxSelfWakes: optional(wholeNonNegative),
    },
  },
  { key: 'history', default: DEFAULT_HISTORY, checks: { pull: isBoolean, pullMax: wholeNonNegative, pullMaxAgeHours: positive } },
]

/** What stops the profile: no id, an unknown model, no claim or a bad claim pattern. */
export function stoppingProblems(p: ProfileConfig, base: string, stop: Stop, context: SectionContext & { seen: Set<string>; models: string[] }): void {
  const id = nonEmptyString(p.id, context)
  if (id) stop(`${base}.id`, id)
  else if (context.seen.has(p.id)) stop(`${base}.id`, 'duplicates the id of an earlier profile')
  if (!context.hasModel(p.model)) stop(`${base}.model`, `names unknown model "${p.model}" (known: ${context.models.join(', ') || 'none'})`)
  else if (chatKind(p.model, context)) stop(`${base}.model`, chatKind(p.model, context)!)
  if (!p.claims?.length) stop(`${base}.claims`, 'must list at least one claim')
  p.claims?.forEach((c, ci) => {
    const bp = patternError(c.bot)
    if (bp) stop(`${base}.claims[${ci}].bot`, `pattern "${c.bot}" ${bp}`)
    if (!c.channels?.length) stop(`${base}.claims[${ci}].channels`, 'must list at least one pattern')
    if (c.channels?.length && c.channels.every(ch => typeof ch === 'string' && ch.startsWith('!'))) {
      stop(`${base}.claims[${ci}].channels`, 'has only exclusions, so it claims nothing')
    }
    c.channels?.forEach((ch, i) => {
      const e = patternError(ch)
      if (e) stop(`${base}.claims[${ci}].channels[${i}]`, `pattern "${ch}" ${e}`)
    })
  })
}

/** The profile with each bad field replaced by its default (reported), every section of a part filled in. */
export function fallenBack(p: ProfileConfig, base: string, sections: readonly ConfigSection<unknown>[], report: Report,
  context: SectionContext): ProfileConfig {
  const out: ProfileConfig = { ...p }
  for (const s of CORE) if (p[s.key] !== undefined) out[s.key] = fallBack(p[s.key], s.default, s.checks ?? {}, `${base}.${s.key}`, report, context)
  for (const s of sections) {
    const path = `${base}.${s.key}`
    const section = fallBack(p[s.key], s.default, s.checks ?? {}, path, report, context)
    out[s.key] = s.across ? s.across(section, (field, message) => report(`${path}.${field}`, message)) : section
  }
  if (positiveInt(p.maxSteps, context)) {
    report(`${base}.maxSteps`, `${positiveInt(p.maxSteps, context)}; using the default ${DEFAULT_MAX_STEPS}`)
    out.maxSteps = DEFAULT_MAX_STEPS
  }
  if (out.timing && out.timing.debounceMaxMs < out.timing.debounceMs) {
    report(`${base}.timing.debounceMaxMs`, `must not be below debounceMs; using debounceMs (${out.timing.debounceMs})`)
    out.timing = { ...out.timing, debounceMaxMs: out.timing.debounceMs }
  }
  if (out.typing && out.typing.maxDelay < out.typing.minDelay) {
    report(`${base}.typing.maxDelay`, `must not be below minDelay; using minDelay (${out.typing.minDelay})`)
    out.typing = { ...out.typing, maxDelay: out.typing.minDelay }
  }
  const roots = p.workspace?.roots?.filter((r, i) => {
    const ok = typeof r === 'string' && (r.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(r))
    if (!ok) report(`${base}.workspace.roots[${i}]`, 'must be an absolute host path; it is left out')
    return ok
  })
  if (roots && roots.length !== p.workspace.roots.length) out.workspace = { ...p.workspace, roots }
  return out
}
