// The plugin configuration (SPEC §1). Field names are a contract with users and other plugins.

export type Lifetime = 'once' | 'recent' | 'retain'
export type ConversationMode = 'channel' | 'cross'
export type StrayTextPolicy = 'remind' | 'send' | 'drop'

/** Which AI SDK provider a `models` entry goes through (SPEC §11.1). */
export type ProviderName = 'openai-compatible' | 'anthropic' | 'google' | 'openai'
export const PROVIDERS: readonly ProviderName[] = ['openai-compatible', 'anthropic', 'google', 'openai']
/** Providers only an image entry goes through (SPEC §24): SiliconFlow's own images API. */
export type ImageOnlyProvider = 'siliconflow'

/** chat: a language model (the default); image: an images endpoint for the draw tool (SPEC §24) */
export type ModelKind = 'chat' | 'image'

export interface ModelConfig {
  id: string
  /** absent: chat */
  kind?: ModelKind
  /** absent: openai-compatible */
  provider?: ProviderName | ImageOnlyProvider
  /** Anthropic's cache lifetime (SPEC §11.1) */
  cacheTtl?: '5m' | '1h'
  /** anthropic, google: tokens the model may think before it answers (extended thinking); 0: the provider's default */
  thinkingBudget?: number
  /** a ChatLuna model, 'platform/model': used instead of baseURL, apiKey and model */
  chatluna?: string
  baseURL: string
  apiKey: string
  model: string
  maxRetries: number
  timeoutMs: number
  /** how tool calls travel (SPEC §11) */
  toolCalls: ToolCallDialect
  /** required: every step must call a tool (finish is the silent one), where the server honours it (SPEC §27); absent: auto */
  toolChoice?: 'auto' | 'required'
  /** the server's context window in tokens; 0: unknown */
  contextTokens: number
  /** model ids tried in order when this one is unavailable */
  fallback: string[]
  /** whether each step's reasoning goes back to the server (SPEC §11) */
  reasoning?: ReasoningMode
  /** per million tokens; 0: unknown (SPEC §16) */
  price?: ModelPrice
}

/** auto: drop until the server asks for it (HTTP 400 naming reasoning_content), then return */
export type ReasoningMode = 'auto' | 'return' | 'drop'

export interface ModelPrice {
  input: number
  cachedInput: number
  /** prompt tokens written to the cache (Anthropic: 1.25× input, 2× for the 1-hour TTL); 0: the input price */
  cacheWrite?: number
  output: number
  /** one picture of an image model (SPEC §24), not per million; 0: unknown */
  image?: number
}

export type ToolCallDialect = 'native' | 'hermes' | 'xml'

export interface CodemodeLimits {
  /** Wall time of a program, including time spent awaiting host tools. */
  timeoutMs: number
  /** Cap of the program's wasm linear memory (values under 20 MiB are raised to it). */
  memoryLimitBytes: number
  /** Host tool calls per program; the call over the limit ends it (ToolCallLimitError). */
  maxToolCalls: number
  /** UTF-8 bytes of each tool input as JSON (InputTooLarge ends the program). */
  maxToolInputBytes: number
  /** UTF-8 bytes of each tool output as JSON (OutputTooLarge ends the program). */
  maxToolOutputBytes: number
  /** UTF-8 bytes of the program's return value as JSON (ResultTooLarge). */
  maxResultBytes: number
  /** paid host calls per program (vision questions, embeddings, speech; SPEC §22); past it they return PaidCallLimit */
  maxPaidCalls?: number
}

export interface ClaimConfig {
  bot: string
  channels: string[]
}

export interface WakeConfig {
  engine: string
  direct: boolean
  mention: boolean
  quote: boolean
  /** a poke of the bot wakes it like a mention (SPEC §19); absent: true */
  poke?: boolean
  keywords: string[]
  /** nicknames: a message naming one counts as a mention (SPEC §15) */
  names?: string[]
  /** may other bots' messages wake the mind (a loop guard when false) */
  fromBots?: boolean
  /** a message older than this when it arrives (by the platform's timestamp) never wakes */
  staleAfterSeconds?: number
  /** model id asked "should you speak?" before a keyword, name or wait wake; '' none */
  judge?: string
  /**
   * people whose messages are stored but never wake the mind nor fill a wait (SPEC §22): other bots
   * a platform does not flag (QQ through OneBot flags none). A user id, or 'platform:userId'.
   */
  ignoreUsers?: string[]
}

export type YieldPolicy = 'never' | 'addressed' | 'any'

/** When turns start and stop in a busy chat (SPEC §15). */
export interface TimingConfig {
  /** after a waking message, wait this long for more (restarted by each message) */
  debounceMs: number
  /** never wait longer than this after the first waking message */
  debounceMaxMs: number
  /** which new messages stop a send_message still typing */
  yield: YieldPolicy
  /** from one turn's end to the next start, at least */
  cooldownSeconds: number
  /** wakes one person may cause per window; count 0: off */
  perUser: { count: number; seconds: number }
  /** turns in a row that no human woke (waits, idle wakes, part requests); then wait is refused until a human writes (SPEC §22) */
  maxSelfWakes?: number
}

export interface TypingConfig {
  baseDelay: number
  charPerSecond: number
  minDelay: number
  maxDelay: number
  jitter: number
}

export interface AttachmentConfig {
  imageInput: boolean
  visionModel: string
  inboundLifetime: Lifetime
  recentTurns: number
  maxImageCount: number
  maxImageBytes: number
  maxTotalImageBytes: number
  maxImageDimension: number
  /** inbound media kept per runtime home, in all (SPEC §22); past it the oldest not shown lately are evicted; absent: the default */
  maxAssetBytes?: number
  /** an asset shown (read, attached, sent) within this many days is never evicted */
  keepDays?: number
}

export interface ProfileConfig {
  id: string
  persona: string
  model: string
  mode: ConversationMode
  claims: ClaimConfig[]
  wake: WakeConfig
  /** SPEC §15; absent: DEFAULT_TIMING */
  timing?: TimingConfig
  typing: TypingConfig
  attachment: AttachmentConfig
  codemode: { enabled: boolean; direct: string[] }
  workspace: { roots: string[] }
  http: { enabled: boolean; allowPrivate: boolean }
  /** trimTo: a full history is cut back to this share of its limits (SPEC §16) */
  context: { maxMessages: number; maxChars: number; trimTo?: number }
  maxSteps: number
  strayText: StrayTextPolicy
  /** ids of MCP servers (Config.mcp.servers) whose tools this profile gets (SPEC §14) */
  mcp: string[]
  /** many tools (SPEC §18); absent: DEFAULT_TOOLS */
  tools?: ToolsConfig
  /** messages said while the bot was away, fetched from the platform (SPEC §19); absent: DEFAULT_HISTORY */
  history?: HistoryConfig
  /**
   * the sections the parts bring (memory, people, recall, …: each part's config.ts), checked when
   * the config is read; a part reads its own as its scope's config
   */
  [section: string]: unknown
}

/** Idle wakes (SPEC §21, docs/initiative.md): a turn of a conversation gone quiet, bounded by hours, a day's count, silence. */
/** History after downtime (SPEC §19): fetched when a runtime starts, its bot comes online, a conversation's first message since. */
export interface HistoryConfig {
  pull: boolean
  /** messages per conversation */
  pullMax: number
  /** none older than this */
  pullMaxAgeHours: number
}

export interface ToolsConfig {
  /** above this many offered tools (built-ins aside), they are found with tool_search instead of declared */
  searchAbove: number
}

export type McpTransport = 'stdio' | 'http'

/** One MCP server (SPEC §14). env and header values are secrets. */
export interface McpServerConfig {
  id: string
  transport: McpTransport
  command: string
  args: string[]
  env: Record<string, string>
  url: string
  headers: Record<string, string>
  /** one tool call */
  timeoutMs: number
}

/** Where conversation histories live (issue 15, docs/storage.md). */
export type Storage = 'files' | 'database'

/** The bot owner's people (SPEC §22 "Who may steer it"), plugin level. */
export interface TrustConfig {
  /** 'platform:userId' of the owner's people: kotodama's commands answer them without a database */
  owners: string[]
  /** tool names only the owner's people may trigger */
  tools: string[]
}

export interface Config {
  dataDir: string
  /** files: JSONL in each runtime home; database: Koishi's database service */
  storage: Storage
  models: ModelConfig[]
  codemode: CodemodeLimits
  profiles: ProfileConfig[]
  mcp: { servers: McpServerConfig[] }
  /** SPEC §22; absent: nobody is the owner's */
  trust?: TrustConfig
  /** SPEC §22: for now only the one day's time zone */
  budgets?: BudgetsConfig
}

/** What happens past a budget (SPEC §22): the fallback model, nothing more, or the reply once a day. */
export type BudgetExceeded = 'fallback' | 'silent' | 'reply'

export interface BudgetsConfig {
  /** all runtimes together, per local day, in the unit of models[].price; 0: no limit */
  day: number
  perProfileDay: number
  /** each conversation */
  perChannelDay: number
  /** what the turns a person woke cost */
  perUserDay: number
  onExceeded: BudgetExceeded
  /** model id used past a budget (onExceeded: fallback); '' : the turn stops as with silent */
  fallback: string
  /** sent once per conversation and day (onExceeded: reply) */
  reply: string
  /**
   * IANA name of the zone kotodama's day is counted in ('' : the host's): usage book, initiative
   * perDay; every time the model reads (fact lines, `[now: …]`, SPEC §27) and the owners' commands show
   */
  timezone: string
}

