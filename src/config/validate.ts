// Semantic checks the Schema cannot express (SPEC §1). A bad field is reported with its path and
// falls back to its default; a profile without a safe default for it (its id, model, claims) is
// left out, the others start. The parts' sections are handed in: config knows no part.
import { PROVIDERS, type CodemodeLimits, type Config, type McpServerConfig, type ModelConfig, type ProfileConfig, type ProviderName,
  type TrustConfig, type BudgetsConfig } from './types'
import { checkedBudgets } from './budgets-checks'
import { DEFAULT_CODEMODE } from './defaults'
import { fallenBack, stoppingProblems } from './profile-checks'
import { at, fallBack, nonEmptyString, nonNegative, optional, positive, positiveInt, wholeNonNegative } from './checks'
import type { ConfigSection, FieldCheck, SectionContext } from './section'

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

const reasoningMode: FieldCheck = v => v === undefined || v === 'auto' || v === 'return' || v === 'drop' ? undefined : 'must be auto, return or drop'

const providerName: FieldCheck = v => v === undefined || PROVIDERS.includes(v as ProviderName) ? undefined
  : v === 'siliconflow' ? 'siliconflow is for image models (kind: image); a chat model on SiliconFlow goes through openai-compatible'
  : `names unknown provider ${JSON.stringify(String(v)).slice(0, 60)} (known: ${PROVIDERS.join(', ')})`

// the console form takes any value here (Schema.dynamic); ChatLuna names its models 'platform/model'
const chatLunaName: FieldCheck = v => v === undefined || v === '' || (typeof v === 'string' && /^[^/\s][^/]*\/\S/.test(v)) ? undefined
  : "must be a ChatLuna model as 'platform/model' (e.g. 'deepseek/deepseek-chat')"

const optNonNegative = optional(nonNegative)

const MODEL_CHECKS: Record<string, FieldCheck> = {
  id: nonEmptyString, chatluna: chatLunaName, baseURL: nonEmptyString, model: nonEmptyString,
  maxRetries: nonNegative, timeoutMs: positive, contextTokens: nonNegative,
  reasoning: reasoningMode, provider: providerName, thinkingBudget: optional(wholeNonNegative),
  cacheTtl: v => v === undefined || v === '5m' || v === '1h' ? undefined : "must be '5m' or '1h'",
  toolChoice: v => v === undefined || v === 'auto' || v === 'required' ? undefined : 'must be auto or required',
  'price.input': optNonNegative, 'price.cachedInput': optNonNegative, 'price.cacheWrite': optNonNegative, 'price.output': optNonNegative,
  'price.image': optNonNegative,
  kind: v => v === undefined || v === 'chat' || v === 'image' ? undefined : 'must be chat or image',
}

/** Fields only a chat model reads: an image entry is never held to them (SPEC §24). */
const CHAT_ONLY = ['chatluna', 'contextTokens', 'reasoning', 'thinkingBudget', 'cacheTtl', 'toolChoice']

/** An image entry's checks: OpenAI-compatible images endpoints, or SiliconFlow's own (image_size, images[]). */
const IMAGE_CHECKS: Record<string, FieldCheck> = {
  ...Object.fromEntries(Object.entries(MODEL_CHECKS).filter(([k]) => !CHAT_ONLY.includes(k))),
  provider: v => v === undefined || v === 'openai-compatible' || v === 'siliconflow' ? undefined
    : 'an image model goes through openai-compatible (/v1/images/generations) or siliconflow (its own images API)',
}

const CODEMODE_CHECKS: Record<string, FieldCheck> = {
  timeoutMs: positive, memoryLimitBytes: positive, maxToolCalls: positiveInt,
  maxToolInputBytes: positive, maxToolOutputBytes: positive, maxResultBytes: positive, maxPaidCalls: optional(wholeNonNegative),
}

const MCP_CHECKS: Record<string, FieldCheck> = { timeoutMs: positive }

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

/** Checks of an entry that has no default to fall back to (a model, a server): each problem leaves it out. */
function runChecks(obj: unknown, base: string, checks: Record<string, FieldCheck>): { path: string; message: string }[] {
  const none = { hasModel: () => false }
  const out: { path: string; message: string }[] = []
  for (const [key, check] of Object.entries(checks)) {
    const message = check(at(obj, key), none)
    if (message) out.push({ path: `${base}.${key}`, message })
  }
  return out
}

export function checkConfigOf(config: Config, sections: readonly ConfigSection<unknown>[]): CheckedConfig {
  const problems: ConfigProblem[] = []
  const models = new Map<string, ModelConfig>()
  config.models.forEach((m, i) => {
    const found = runChecks(m, `models[${i}]`, m.kind === 'image' ? IMAGE_CHECKS : MODEL_CHECKS)
    if (models.has(m.id)) found.push({ path: `models[${i}].id`, message: 'duplicates the id of an earlier model' })
    problems.push(...found)
    if (!found.length) models.set(m.id, m)
  })
  // fallbacks name known models (checked once every model is known); a bad one is dropped with a warning
  config.models.forEach((m, i) => {
    const known = models.get(m.id)
    if (!known || known !== m) return
    const fallback = (m.fallback ?? []).filter((id, k) => {
      const why = id === m.id ? 'names the model itself' : !models.has(id) ? `names unknown model "${id}"`
        : (models.get(id)!.kind === 'image') !== (m.kind === 'image') ? `names model "${id}" of another kind` : undefined
      if (why) problems.push({ path: `models[${i}].fallback[${k}]`, message: `${why}; it is left out` })
      return !why
    })
    models.set(m.id, { ...m, fallback })
  })
  const modelsSeen: SectionContext = { hasModel: id => models.has(id), kindOf: id => models.has(id) ? models.get(id)!.kind ?? 'chat' : undefined }
  const codemode = fallBack<CodemodeLimits>(config.codemode, DEFAULT_CODEMODE, CODEMODE_CHECKS, 'codemode',
    (path, message) => problems.push({ path, message }), modelsSeen)
  const mcpServers = new Map<string, McpServerConfig>()
  config.mcp?.servers?.forEach((srv, i) => {
    const found = mcpServerProblems(srv, `mcp.servers[${i}]`, new Set(mcpServers.keys()))
    problems.push(...found)
    if (!found.length) mcpServers.set(srv.id, srv)
  })
  const profiles: ProfileConfig[] = []
  const seen = new Set<string>()
  const context = { ...modelsSeen, seen, models: [...models.keys()] }
  config.profiles.forEach((p, i) => {
    const base = `profiles[${i}]`
    const stops: { path: string; message: string }[] = []
    stoppingProblems(p, base, (path, message) => stops.push({ path, message }), context)
    if (p.id) seen.add(p.id)
    const fellBack: ConfigProblem[] = []
    const report = (path: string, message: string) => fellBack.push({ profile: p.id || `#${i}`, index: i, path, message, leftOut: true })
    if (stops.length) {
      // what would have fallen back is told too: the owner fixes everything at once
      fallenBack(p, base, sections, report, context)
      return problems.push(...stops.map(f => ({ profile: p.id || `#${i}`, index: i, ...f })), ...fellBack)
    }
    // a server that is unknown or misconfigured costs the profile its tools, not the profile itself
    const mcp = (p.mcp ?? []).filter((id, k) => {
      if (mcpServers.has(id)) return true
      report(`${base}.mcp[${k}]`, `names unknown or invalid MCP server "${id}"; it is left out`)
    })
    profiles.push(fallenBack(mcp.length === (p.mcp ?? []).length ? p : { ...p, mcp }, base, sections, report, context))
    problems.push(...fellBack)
  })
  return { models, codemode, profiles, mcpServers, trust: checkedTrust(config.trust, problems),
    budgets: checkedBudgets(config.budgets, problems, new Set(models.keys())), problems }
}

/** `trust.owners` entries are 'platform:userId' (e.g. onebot:10001); another is reported and left out: it would name nobody. */
function checkedTrust(given: Partial<TrustConfig> | undefined, problems: ConfigProblem[]): TrustConfig {
  const owners = (Array.isArray(given?.owners) ? given.owners : []).filter((o, i) => {
    const ok = typeof o === 'string' && /^[^:\s]+:\S+$/.test(o)
    const shown = JSON.stringify(o)?.slice(0, 60)
    if (!ok) problems.push({ path: `trust.owners[${i}]`, message: `${shown} is not platform:userId (e.g. onebot:10001); it is left out` })
    return ok
  })
  const tools = (Array.isArray(given?.tools) ? given.tools : []).filter((t, i) => {
    if (typeof t === 'string' && t) return true
    problems.push({ path: `trust.tools[${i}]`, message: `${JSON.stringify(t)?.slice(0, 60)} is not a tool name; it is left out` })
  })
  return { owners, tools }
}
