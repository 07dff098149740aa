import type { AttachmentConfig, CodemodeLimits, ModelPrice, ProfileConfig, TimingConfig, ToolsConfig, TypingConfig } from './types'

export const DEFAULT_CODEMODE: CodemodeLimits = {
  timeoutMs: 30000,
  memoryLimitBytes: 67108864,
  maxToolCalls: 200,
  maxToolInputBytes: 1048576,
  maxToolOutputBytes: 33554432,
  maxResultBytes: 33554432,
  maxPaidCalls: 10,
}

export const DEFAULT_TIMING: Readonly<TimingConfig> = {
  debounceMs: 1500,
  debounceMaxMs: 6000,
  yield: 'addressed',
  cooldownSeconds: 0,
  perUser: { count: 0, seconds: 60 },
  maxSelfWakes: 3,
}

/** SPEC §22 "Who may steer it" */
export const DEFAULT_TRUST: Readonly<import('./types').TrustConfig> = { owners: [], tools: [] }

export const DEFAULT_STALE_SECONDS = 600

export const DEFAULT_TOOLS: Readonly<ToolsConfig> = { searchAbove: 30 }
/** declarations longer than this together are found with tool_search too (SPEC §18) */
export const SEARCH_ABOVE_CHARS = 20_000

export const NO_PRICE: Readonly<ModelPrice> = { input: 0, cachedInput: 0, output: 0 }

/** the share of its limits a full history is cut back to (SPEC §16) */
export const DEFAULT_TRIM_TO = 0.5

/** SPEC §19 "History after downtime" */
export const DEFAULT_HISTORY: Readonly<import('./types').HistoryConfig> = { pull: true, pullMax: 50, pullMaxAgeHours: 24 }

/** SPEC §22: the one day's zone ('' : the host's) */
export const DEFAULT_BUDGETS: Readonly<import('./types').BudgetsConfig> = {
  day: 0, perProfileDay: 0, perChannelDay: 0, perUserDay: 0, onExceeded: 'fallback', fallback: '', reply: '', timezone: '',
}

export const DEFAULT_TYPING: Readonly<TypingConfig> = { baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000, jitter: 0.25 }

export const DEFAULT_ATTACHMENT: Readonly<AttachmentConfig> = {
  imageInput: false, visionModel: '', inboundLifetime: 'recent', recentTurns: 2,
  maxImageCount: 4, maxImageBytes: 5242880, maxTotalImageBytes: 10485760, maxImageDimension: 8000,
  maxAssetBytes: 1073741824, keepDays: 30,
}

export const DEFAULT_CONTEXT: Readonly<Required<ProfileConfig['context']>> = { maxMessages: 200, maxChars: 60000, trimTo: DEFAULT_TRIM_TO }

export const DEFAULT_MAX_STEPS = 20
