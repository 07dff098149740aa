// The console form (SPEC §1). Ranges are checked by validate.ts, not here: a bad value in one
// profile must stop only that profile, while a Schema failure would stop the whole plugin.
import { Schema } from 'koishi'
import { PROVIDERS, type CodemodeLimits, type Config } from './types'
import {
  DEFAULT_ATTACHMENT, DEFAULT_CODEMODE, DEFAULT_CONTEXT, DEFAULT_MAX_STEPS, DEFAULT_STALE_SECONDS,
  DEFAULT_TIMING, DEFAULT_TOOLS, DEFAULT_TYPING, DEFAULT_BUDGETS,
} from './defaults'
import type { ConfigSection } from './section'

const lifetime = Schema.union(['once', 'recent', 'retain'])

/** The console's choice of ChatLuna models, set by the edge while ChatLuna is loaded (koishi/chatluna.ts). */
export const CHATLUNA_MODEL_SCHEMA = 'kotodama.chatluna-model'

const model = Schema.object({
  id: Schema.string().required(),
  kind: Schema.union(['chat', 'image']).default('chat'),
  // any string passes the form: an unknown provider costs its entry (validate.ts), not the whole plugin
  // siliconflow: an image entry's only (SPEC §24)
  provider: Schema.union([...[...PROVIDERS, 'siliconflow'].map(p => Schema.const(p)), Schema.string()]).default('openai-compatible'),
  // a ChatLuna model ('platform/model') takes the place of baseURL, apiKey and model (SPEC §11.1)
  // any value on the server (Schema.dynamic): a model ChatLuna dropped must not fail the whole config
  chatluna: Schema.dynamic(CHATLUNA_MODEL_SCHEMA).default(''),
  baseURL: Schema.string().default('http://127.0.0.1:11434/v1'),
  apiKey: Schema.string().role('secret').default(''),
  model: Schema.string().default('qwen3:8b'),
  maxRetries: Schema.number().default(2),
  timeoutMs: Schema.number().default(120000),
  toolCalls: Schema.union(['native', 'hermes', 'xml']).default('native'),
  contextTokens: Schema.number().default(0),
  fallback: Schema.array(Schema.string()).role('table').default([]),
  reasoning: Schema.union(['auto', 'return', 'drop']).default('auto'),
  toolChoice: Schema.union(['auto', 'required']).default('auto'),
  cacheTtl: Schema.union(['5m', '1h']).default('5m'),
  thinkingBudget: Schema.number().default(0),
  price: Schema.object({
    input: Schema.number().default(0),
    cachedInput: Schema.number().default(0),
    cacheWrite: Schema.number().default(0),
    output: Schema.number().default(0),
    image: Schema.number().default(0),
  }),
})

const codemodeLimits = Schema.object(Object.fromEntries(
  Object.entries(DEFAULT_CODEMODE).map(([k, v]) => [k, Schema.number().default(v)]),
) as Record<keyof CodemodeLimits, Schema<number>>)

const claim = Schema.object({
  bot: Schema.string().default('*'),
  channels: Schema.array(Schema.string()).role('table').default([]),
})

/** A profile's form: the core fields, then each part's section under its key. */
const profileOf = (sections: readonly ConfigSection<unknown>[]) => Schema.object({
  id: Schema.string().required(),
  persona: Schema.string().role('textarea').default(''),
  model: Schema.string().default('main'),
  mode: Schema.union(['channel', 'cross']).default('channel'),
  claims: Schema.array(claim).default([]),
  wake: Schema.object({
    engine: Schema.string().default('standard'),
    direct: Schema.boolean().default(true),
    mention: Schema.boolean().default(true),
    quote: Schema.boolean().default(true),
    poke: Schema.boolean().default(true),
    keywords: Schema.array(Schema.string()).role('table').default([]),
    names: Schema.array(Schema.string()).role('table').default([]),
    fromBots: Schema.boolean().default(false),
    staleAfterSeconds: Schema.number().default(DEFAULT_STALE_SECONDS),
    judge: Schema.string().default(''),
    ignoreUsers: Schema.array(Schema.string()).role('table').default([]),
  }),
  timing: Schema.object({
    debounceMs: Schema.number().default(DEFAULT_TIMING.debounceMs),
    debounceMaxMs: Schema.number().default(DEFAULT_TIMING.debounceMaxMs),
    yield: Schema.union(['never', 'addressed', 'any']).default(DEFAULT_TIMING.yield),
    cooldownSeconds: Schema.number().default(DEFAULT_TIMING.cooldownSeconds),
    perUser: Schema.object({
      count: Schema.number().default(DEFAULT_TIMING.perUser.count),
      seconds: Schema.number().default(DEFAULT_TIMING.perUser.seconds),
    }),
    maxSelfWakes: Schema.number().default(DEFAULT_TIMING.maxSelfWakes!),
  }),
  typing: Schema.object({
    baseDelay: Schema.number().default(DEFAULT_TYPING.baseDelay),
    charPerSecond: Schema.number().default(DEFAULT_TYPING.charPerSecond),
    minDelay: Schema.number().default(DEFAULT_TYPING.minDelay),
    maxDelay: Schema.number().default(DEFAULT_TYPING.maxDelay),
    jitter: Schema.number().default(DEFAULT_TYPING.jitter),
  }),
  attachment: Schema.object({
    imageInput: Schema.boolean().default(DEFAULT_ATTACHMENT.imageInput),
    visionModel: Schema.string().default(DEFAULT_ATTACHMENT.visionModel),
    inboundLifetime: lifetime.default(DEFAULT_ATTACHMENT.inboundLifetime),
    recentTurns: Schema.number().default(DEFAULT_ATTACHMENT.recentTurns),
    maxImageCount: Schema.number().default(DEFAULT_ATTACHMENT.maxImageCount),
    maxImageBytes: Schema.number().default(DEFAULT_ATTACHMENT.maxImageBytes),
    maxTotalImageBytes: Schema.number().default(DEFAULT_ATTACHMENT.maxTotalImageBytes),
    maxImageDimension: Schema.number().default(DEFAULT_ATTACHMENT.maxImageDimension),
    maxAssetBytes: Schema.number().default(DEFAULT_ATTACHMENT.maxAssetBytes!),
    keepDays: Schema.number().default(DEFAULT_ATTACHMENT.keepDays!),
  }),
  codemode: Schema.object({
    enabled: Schema.boolean().default(false),
    direct: Schema.array(Schema.string()).role('table').default([]),
  }),
  workspace: Schema.object({
    roots: Schema.array(Schema.string()).role('table').default([]),
  }),
  http: Schema.object({
    enabled: Schema.boolean().default(false),
    allowPrivate: Schema.boolean().default(false),
  }),
  context: Schema.object({
    maxMessages: Schema.number().default(DEFAULT_CONTEXT.maxMessages),
    maxChars: Schema.number().default(DEFAULT_CONTEXT.maxChars),
    trimTo: Schema.number().default(DEFAULT_CONTEXT.trimTo),
  }),
  maxSteps: Schema.number().default(DEFAULT_MAX_STEPS),
  strayText: Schema.union(['remind', 'send', 'drop']).default('remind'),
  mcp: Schema.array(Schema.string()).role('table').default([]),
  tools: Schema.object({
    searchAbove: Schema.number().default(DEFAULT_TOOLS.searchAbove),
  }),
  // the values of DEFAULT_HISTORY (a test keeps them equal)
  history: Schema.object({
    pull: Schema.boolean().default(true),
    pullMax: Schema.number().default(50),
    pullMaxAgeHours: Schema.number().default(24),
  }),
  ...Object.fromEntries(sections.map(section => [section.key, section.schema()])),
})

const mcpServer = Schema.object({
  id: Schema.string().required(),
  transport: Schema.union(['stdio', 'http']).default('stdio'),
  command: Schema.string().default(''),
  args: Schema.array(Schema.string()).role('table').default([]),
  env: Schema.dict(Schema.string().role('secret')).role('table').default({}),
  url: Schema.string().default(''),
  headers: Schema.dict(Schema.string().role('secret')).role('table').default({}),
  timeoutMs: Schema.number().default(60000),
})

/** The plugin's form with the sections of its parts (the edge passes them: runtime/part-list.ts). */
export const configSchemaOf = (sections: readonly ConfigSection<unknown>[]): Schema<Partial<Config>, Config> => Schema.object({
  dataDir: Schema.string().default('data/kotodama'),
  storage: Schema.union(['files', 'database']).default('files'),
  models: Schema.array(model).default([]),
  codemode: codemodeLimits,
  profiles: Schema.array(profileOf(sections)).default([]),
  mcp: Schema.object({
    servers: Schema.array(mcpServer).default([]),
  }),
  trust: Schema.object({
    owners: Schema.array(Schema.string()).role('table').default([]),
    tools: Schema.array(Schema.string()).role('table').default([]),
  }),
  budgets: Schema.object({
    day: Schema.number().min(0).default(DEFAULT_BUDGETS.day),
    perProfileDay: Schema.number().min(0).default(DEFAULT_BUDGETS.perProfileDay),
    perChannelDay: Schema.number().min(0).default(DEFAULT_BUDGETS.perChannelDay),
    perUserDay: Schema.number().min(0).default(DEFAULT_BUDGETS.perUserDay),
    onExceeded: Schema.union(['fallback', 'silent', 'reply']).default(DEFAULT_BUDGETS.onExceeded),
    fallback: Schema.string().default(DEFAULT_BUDGETS.fallback),
    reply: Schema.string().role('textarea').default(DEFAULT_BUDGETS.reply),
    timezone: Schema.string().default(DEFAULT_BUDGETS.timezone),
  }),
}) as any
