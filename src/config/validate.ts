// Semantic checks the Schema cannot express. A bad profile is reported with its field path and
// left out; the others start (SPEC §1).
import { patternError } from '../claims/match'
import { PROVIDERS, type CodemodeLimits, type Config, type McpServerConfig, type ModelConfig, type ProfileConfig, type ProviderName,
  type StickersConfig, type VoiceConfig, type InitiativeConfig, type TrustConfig, type BudgetsConfig } from './types'
import { DEFAULT_CODEMODE, DEFAULT_HISTORY, DEFAULT_PEOPLE, DEFAULT_STICKER_LEARN, DEFAULT_STICKERS, DEFAULT_VOICE, DEFAULT_INITIATIVE } from './defaults'
import { checkedBudgets } from './budgets-checks'
import { INITIATIVE_CHECKS } from './initiative-checks'
import { parseFileUrl, schemeOf } from '../resources/file-url'

export interface ConfigProblem {
  profile?: string
  /** the profile's place in the config's list, for a problem that stops it */
  index?: number
  path: string
  message: string
  /** the profile starts without the bad part (the message says what is left out) */
  leftOut?: boolean
}

export interface CheckedConfig {
  models: Map<string, ModelConfig>
  /** the codemode quotas, a bad field replaced by its default */
  codemode: CodemodeLimits
  profiles: ProfileConfig[]
  /** MCP servers that passed their checks, by id */
  mcpServers: Map<string, McpServerConfig>
  /** the owner's people (SPEC §22); a malformed entry left out */
  trust: TrustConfig
  /** budgets.timezone known to Node.js, else '' (the host's) */
  budgets: BudgetsConfig
  problems: ConfigProblem[]
}

type Check = (path: string, value: unknown) => string | undefined

const nonNegative: Check = (_, v) => typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a number >= 0'
const positive: Check = (_, v) => typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a number > 0'
const positiveInt: Check = (_, v) => Number.isInteger(v) && (v as number) > 0 ? undefined : 'must be a whole number > 0'
const nonEmptyString: Check = (_, v) => typeof v === 'string' && v.trim() ? undefined : 'must not be empty'
const wholeNonNegative: Check = (_, v) => Number.isInteger(v) && (v as number) >= 0 ? undefined : 'must be a whole number >= 0'
const fraction: Check = (_, v) => typeof v === 'number' && v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1'
const share: Check = (_, v) => v === undefined || (typeof v === 'number' && v > 0 && v <= 1) ? undefined : 'must be above 0 and at most 1'
const optionalNonNegative: Check = (p, v) => v === undefined ? undefined : nonNegative(p, v)
const optionalWholeNonNegative: Check = (p, v) => v === undefined ? undefined : wholeNonNegative(p, v)
const reasoningMode: Check = (_, v) => v === undefined || v === 'auto' || v === 'return' || v === 'drop' ? undefined : 'must be auto, return or drop'

function at(obj: any, path: string): unknown {
  return path.split('.').reduce((o, k) => o?.[k], obj)
}

const providerName: Check = (_, v) => v === undefined || PROVIDERS.includes(v as ProviderName) ? undefined
  : `names unknown provider ${JSON.stringify(String(v)).slice(0, 60)} (known: ${PROVIDERS.join(', ')})`

// the console form takes any value here (Schema.dynamic); ChatLuna names its models 'platform/model'
const chatLunaName: Check = (_, v) => v === undefined || v === '' || (typeof v === 'string' && /^[^/\s][^/]*\/\S/.test(v)) ? undefined
  : "must be a ChatLuna model as 'platform/model' (e.g. 'deepseek/deepseek-chat')"

const MODEL_CHECKS: [string, Check][] = [
  ['id', nonEmptyString], ['chatluna', chatLunaName], ['baseURL', nonEmptyString], ['model', nonEmptyString],
  ['maxRetries', nonNegative], ['timeoutMs', positive], ['contextTokens', nonNegative],
  ['reasoning', reasoningMode], ['provider', providerName], ['thinkingBudget', optionalWholeNonNegative],
  ['cacheTtl', (_, v) => v === undefined || v === '5m' || v === '1h' ? undefined : "must be '5m' or '1h'"],
  ['price.input', optionalNonNegative], ['price.cachedInput', optionalNonNegative], ['price.cacheWrite', optionalNonNegative],
  ['price.output', optionalNonNegative],
]

const CODEMODE_CHECKS: [string, Check][] = [
  ['timeoutMs', positive], ['memoryLimitBytes', positive], ['maxToolCalls', positiveInt],
  ['maxToolInputBytes', positive], ['maxToolOutputBytes', positive], ['maxResultBytes', positive],
]

const PROFILE_CHECKS: [string, Check][] = [
  ['id', nonEmptyString],
  ['typing.baseDelay', nonNegative], ['typing.charPerSecond', nonNegative],
  ['typing.minDelay', nonNegative], ['typing.maxDelay', nonNegative], ['typing.jitter', fraction],
  ['attachment.recentTurns', positiveInt], ['attachment.maxImageCount', nonNegative],
  ['attachment.maxImageBytes', nonNegative], ['attachment.maxTotalImageBytes', nonNegative],
  ['attachment.maxImageDimension', nonNegative],
  ['wake.staleAfterSeconds', optionalNonNegative], ['tools.searchAbove', optionalWholeNonNegative],
  ['timing.debounceMs', optionalNonNegative], ['timing.debounceMaxMs', optionalNonNegative], ['timing.cooldownSeconds', optionalNonNegative],
  ['timing.perUser.count', optionalWholeNonNegative], ['timing.perUser.seconds', optionalNonNegative],
  ['timing.maxSelfWakes', optionalWholeNonNegative],
  ['context.maxMessages', positiveInt], ['context.maxChars', positiveInt], ['context.trimTo', share],
  ['maxSteps', positiveInt],
  ['memory.maxFileBytes', wholeNonNegative], ['memory.maxTotalBytes', wholeNonNegative], ['memory.maxFiles', wholeNonNegative],
]

const MCP_CHECKS: [string, Check][] = [['timeoutMs', positive]]

function mcpServerProblems(s: McpServerConfig, base: string, seen: Set<string>) {
  const out = runChecks(s, base, MCP_CHECKS)
  // tool names are <server>_<tool> made valid (mcp/names.ts), so any id works there; the id is also
  // the host of mcp://<id>/<uri>, which ends at the first '/' (or '?', '#')
  const idProblem = mcpIdProblem(s.id)
  if (idProblem) out.push({ path: `${base}.id`, message: idProblem })
  else if ([...seen].some(id => id.toLowerCase() === s.id.toLowerCase())) {
    out.push({ path: `${base}.id`, message: 'duplicates the id of an earlier server (ids are compared ignoring case, as mcp:// URLs are)' })
  }
  if (s.transport === 'stdio' && !s.command?.trim()) out.push({ path: `${base}.command`, message: 'must not be empty for transport stdio' })
  if (s.transport === 'http') {
    let ok = false
    try { ok = /^https?:$/.test(new URL(s.url).protocol) } catch {}
    if (!ok) out.push({ path: `${base}.url`, message: 'must be an http:// or https:// URL for transport http' })
  }
  return out
}

function mcpIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string' || !id.trim()) return 'must not be empty'
  if (id !== id.trim()) return 'must not start or end with a space'
  // eslint-disable-next-line no-control-regex
  if (/[/?#\u0000-\u001f\u007f]/.test(id)) return 'must not contain "/", "?", "#" or control characters (it is the server part of mcp://<id>/<uri>)'
}

/** Why a pinned entry is not a local:// file URL that read and write accept, if it is not. */
function pinnedProblem(u: unknown): string | undefined {
  if (typeof u !== 'string' || schemeOf(u) !== 'local') return 'must be a local:// file URL'
  if (/\/$/.test(u)) return 'names a folder; pin a file, e.g. local://memory/core.md'
  try {
    const parsed = parseFileUrl(u)
    if (!parsed.segments.length) return 'names a folder; pin a file, e.g. local://memory/core.md'
    if (parsed.selectors.length || parsed.view || parsed.offset !== undefined || u.includes('?')) {
      return 'must be a plain file URL, without line selectors or a query (a pinned file is shown whole)'
    }
  } catch (e: any) {
    return `is not a valid URL: ${e?.message ?? e}`
  }
}

function runChecks(obj: unknown, base: string, checks: [string, Check][]): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = []
  for (const [key, check] of checks) {
    const message = check(key, at(obj, key))
    if (message) out.push({ path: `${base}.${key}`, message })
  }
  return out
}

function profileProblems(p: ProfileConfig, index: number, models: Map<string, ModelConfig>, seen: Set<string>) {
  const base = `profiles[${index}]`
  const out = runChecks(p, base, PROFILE_CHECKS)
  if (p.id && seen.has(p.id)) out.push({ path: `${base}.id`, message: `duplicates the id of an earlier profile` })
  if (!models.has(p.model)) out.push({ path: `${base}.model`, message: `names unknown model "${p.model}" (known: ${[...models.keys()].join(', ') || 'none'})` })
  if (p.attachment?.visionModel && !models.has(p.attachment.visionModel)) {
    out.push({ path: `${base}.attachment.visionModel`, message: `names unknown model "${p.attachment.visionModel}"` })
  }
  if (p.recall?.embeddingModel && !models.has(p.recall.embeddingModel)) {
    out.push({ path: `${base}.recall.embeddingModel`, message: `names unknown model "${p.recall.embeddingModel}"` })
  }
  if (p.wake?.judge && !models.has(p.wake.judge)) out.push({ path: `${base}.wake.judge`, message: `names unknown model "${p.wake.judge}"` })
  if (p.timing && p.timing.debounceMaxMs < p.timing.debounceMs) out.push({ path: `${base}.timing.debounceMaxMs`, message: 'must not be below debounceMs' })
  if (p.typing && p.typing.maxDelay < p.typing.minDelay) out.push({ path: `${base}.typing.maxDelay`, message: 'must not be below minDelay' })
  if (!p.claims?.length) out.push({ path: `${base}.claims`, message: 'must list at least one claim' })
  p.claims?.forEach((c, ci) => {
    const bp = patternError(c.bot)
    if (bp) out.push({ path: `${base}.claims[${ci}].bot`, message: `pattern "${c.bot}" ${bp}` })
    if (!c.channels?.length) out.push({ path: `${base}.claims[${ci}].channels`, message: 'must list at least one pattern' })
    if (c.channels?.length && c.channels.every(ch => typeof ch === 'string' && ch.startsWith('!'))) {
      out.push({ path: `${base}.claims[${ci}].channels`, message: 'has only exclusions, so it claims nothing' })
    }
    c.channels?.forEach((ch, i) => {
      const e = patternError(ch)
      if (e) out.push({ path: `${base}.claims[${ci}].channels[${i}]`, message: `pattern "${ch}" ${e}` })
    })
  })
  p.workspace?.roots?.forEach((r, i) => {
    if (typeof r !== 'string' || !(r.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(r))) {
      out.push({ path: `${base}.workspace.roots[${i}]`, message: 'must be an absolute host path' })
    }
  })
  p.memory?.pinned?.forEach((u, i) => {
    const problem = pinnedProblem(u)
    if (problem) out.push({ path: `${base}.memory.pinned[${i}]`, message: problem })
  })
  return out
}

const HISTORY_CHECKS: [string, Check][] = [
  ['pull', (_, v) => typeof v === 'boolean' ? undefined : 'must be true or false'], ['pullMax', wholeNonNegative], ['pullMaxAgeHours', positive],
]

/**
 * An optional section with its defaults filled in; a bad field is reported (at `path`.field) and
 * replaced by its default, and the profile starts (SPEC §19).
 */
function checkedSection<T extends object>(given: unknown, defaults: Readonly<T>, checks: [string, Check][], path: string,
  report: (path: string, message: string) => void): T {
  const section: Record<string, unknown> = { ...defaults, ...(given && typeof given === 'object' ? given : {}) }
  for (const [field, check] of checks) {
    const message = check(field, section[field])
    if (!message) continue
    report(`${path}.${field}`, `${message}; using the default ${JSON.stringify((defaults as Record<string, unknown>)[field])}`)
    section[field] = (defaults as Record<string, unknown>)[field]
  }
  return section as T
}

const isBoolean: Check = (_, v) => typeof v === 'boolean' ? undefined : 'must be true or false'
const STICKER_CHECKS: [string, Check][] = [
  ['enabled', isBoolean], ['dir', (_, v) => typeof v === 'string' ? undefined : 'must be a folder path or empty'],
  ['maxPerTurn', wholeNonNegative], ['offer', wholeNonNegative],
]
const LEARN_CHECKS: [string, Check][] = [
  ['enabled', isBoolean], ['groups', (_, v) => Array.isArray(v) && v.every(g => typeof g === 'string') ? undefined : 'must be a list of claim patterns'],
  ['seenTimes', wholeNonNegative], ['windowMinutes', positive], ['perDay', wholeNonNegative],
]

const PEOPLE_CHECKS: [string, Check][] = [['enabled', isBoolean], ['noteChars', positiveInt]]

/** `voice.stt` and `voice.tts` name speech models ('vits': Koishi's service); an unknown one turns its side off. */
function voiceChecks(models: Map<string, ModelConfig>): [string, Check][] {
  const known = (vits: boolean): Check => (_, v) => typeof v !== 'string' ? 'must be a model id or empty'
    : !v || models.has(v) || (vits && v === 'vits') ? undefined : `names unknown model "${v}"${vits ? " (or write 'vits' for Koishi's vits service)" : ''}`
  return [
    ['stt', known(false)], ['tts', known(true)], ['ttsVoice', (_, v) => typeof v === 'string' ? undefined : 'must be a voice name or empty'],
    ['maxSeconds', positive], ['maxChars', positiveInt],
  ]
}

/** The profile's optional sections, checked (absent, the defaults hold). */
function withSections(p: ProfileConfig, index: number, problems: ConfigProblem[], models: Map<string, ModelConfig>): ProfileConfig {
  const report = (path: string, message: string) => problems.push({ profile: p.id, index, path, message, leftOut: true })
  const base = `profiles[${index}]`
  const out = { ...p }
  if (p.history !== undefined) out.history = checkedSection(p.history, DEFAULT_HISTORY, HISTORY_CHECKS, `${base}.history`, report)
  if (p.stickers !== undefined) {
    const stickers = checkedSection<StickersConfig>(p.stickers, DEFAULT_STICKERS, STICKER_CHECKS, `${base}.stickers`, report)
    stickers.learn = checkedSection(p.stickers.learn, DEFAULT_STICKER_LEARN, LEARN_CHECKS, `${base}.stickers.learn`, report)
    out.stickers = stickers
  }
  if (p.voice !== undefined) out.voice = checkedSection<VoiceConfig>(p.voice, DEFAULT_VOICE, voiceChecks(models), `${base}.voice`, report)
  const idle = p.initiative
  if (idle !== undefined) out.initiative = checkedSection<InitiativeConfig>(idle, DEFAULT_INITIATIVE, INITIATIVE_CHECKS, `${base}.initiative`, report)
  if (p.people !== undefined) out.people = checkedSection(p.people, DEFAULT_PEOPLE, PEOPLE_CHECKS, `${base}.people`, report)
  return out
}

export function checkConfig(config: Config): CheckedConfig {
  const problems: ConfigProblem[] = []
  const models = new Map<string, ModelConfig>()
  config.models.forEach((m, i) => {
    const found = runChecks(m, `models[${i}]`, MODEL_CHECKS)
    if (models.has(m.id)) found.push({ path: `models[${i}].id`, message: 'duplicates the id of an earlier model' })
    problems.push(...found)
    if (!found.length) models.set(m.id, m)
  })
  // fallbacks name known models (checked once every model is known); a bad one is dropped with a warning
  config.models.forEach((m, i) => {
    const known = models.get(m.id)
    if (!known || known !== m) return
    const fallback = (m.fallback ?? []).filter((id, k) => {
      const why = id === m.id ? 'names the model itself' : !models.has(id) ? `names unknown model "${id}"` : undefined
      if (why) problems.push({ path: `models[${i}].fallback[${k}]`, message: `${why}; it is left out` })
      return !why
    })
    models.set(m.id, { ...m, fallback })
  })
  const codemode = { ...DEFAULT_CODEMODE, ...config.codemode }
  for (const p of runChecks(codemode, 'codemode', CODEMODE_CHECKS)) {
    const key = p.path.slice('codemode.'.length) as keyof CodemodeLimits
    problems.push({ ...p, message: `${p.message}; using the default ${DEFAULT_CODEMODE[key]}` })
    codemode[key] = DEFAULT_CODEMODE[key]
  }
  const mcpServers = new Map<string, McpServerConfig>()
  config.mcp?.servers?.forEach((srv, i) => {
    const found = mcpServerProblems(srv, `mcp.servers[${i}]`, new Set(mcpServers.keys()))
    problems.push(...found)
    if (!found.length) mcpServers.set(srv.id, srv)
  })
  const profiles: ProfileConfig[] = []
  const seen = new Set<string>()
  config.profiles.forEach((p, i) => {
    const found = profileProblems(p, i, models, seen)
    if (p.id) seen.add(p.id)
    if (found.length) return problems.push(...found.map(f => ({ profile: p.id || `#${i}`, index: i, ...f })))
    // a server that is unknown or misconfigured costs the profile its tools, not the profile itself
    const mcp = (p.mcp ?? []).filter((id, k) => {
      if (mcpServers.has(id)) return true
      problems.push({ profile: p.id, path: `profiles[${i}].mcp[${k}]`, message: `names unknown or invalid MCP server "${id}"; it is left out`, leftOut: true })
    })
    profiles.push(withSections(mcp.length === (p.mcp ?? []).length ? p : { ...p, mcp }, i, problems, models))
  })
  return { models, codemode, profiles, mcpServers, trust: checkedTrust(config.trust, problems),
    budgets: checkedBudgets(config.budgets, problems), problems }
}

/** `trust.owners` entries are 'platform:userId' (e.g. onebot:10001); another is reported and left out: it would name nobody. */
function checkedTrust(given: Partial<TrustConfig> | undefined, problems: ConfigProblem[]): TrustConfig {
  const owners = (Array.isArray(given?.owners) ? given.owners : []).filter((o, i) => {
    const ok = typeof o === 'string' && /^[^:\s]+:\S+$/.test(o)
    const shown = JSON.stringify(o)?.slice(0, 60)
    if (!ok) problems.push({ path: `trust.owners[${i}]`, message: `${shown} is not platform:userId (e.g. onebot:10001); it is left out` })
    return ok
  })
  return { owners, tools: Array.isArray(given?.tools) ? given.tools.filter(t => typeof t === 'string') : [] }
}
