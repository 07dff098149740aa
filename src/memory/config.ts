// The memory section of a profile (SPEC §13): a writable local://, its quotas (inclusive, counting
// all of local/), the files pinned into every request, the trash (SPEC §22); its form with texts, and its checks.
import Schema from 'schemastery'
import { isBoolean, wholeNonNegative } from '../config/checks'
import type { ConfigSection, FieldCheck } from '../config/section'
import { parseFileUrl, schemeOf } from '../resources/file-url'
import enUS from './config.en-US.yml'
import zhCN from './config.zh-CN.yml'

export interface MemoryConfig {
  /** offer the write tool */
  enabled: boolean
  maxFileBytes: number
  maxTotalBytes: number
  maxFiles: number
  /** local:// URLs shown in full in every request */
  pinned: string[]
  /** list local://memory/ in every request */
  index: boolean
  /** days a removed or overwritten file stays in the trash (SPEC §22) */
  keepDays: number
  /** most bytes the trash keeps; past it the oldest entries go first */
  trashBytes: number
}

export const DEFAULT_MEMORY: Readonly<MemoryConfig> = {
  enabled: true,
  maxFileBytes: 1048576,
  maxTotalBytes: 67108864,
  maxFiles: 1000,
  pinned: ['local://memory/core.md'],
  index: true,
  keepDays: 30,
  trashBytes: 268435456,
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

/** Every bad entry, by its index: `[1] "local://memory/" names a folder; …`. */
const pinnedList: FieldCheck = v => {
  if (!Array.isArray(v)) return 'must be a list of local:// file URLs'
  const bad = v.flatMap((u, i) => {
    const problem = pinnedProblem(u)
    return problem ? [`[${i}] ${JSON.stringify(u)?.slice(0, 80)} ${problem}`] : []
  })
  return bad.length ? bad.join('; ') : undefined
}

function schema(): Schema<any, MemoryConfig> {
  const d = DEFAULT_MEMORY
  return Schema.object({
    enabled: Schema.boolean().default(d.enabled),
    maxFileBytes: Schema.number().default(d.maxFileBytes),
    maxTotalBytes: Schema.number().default(d.maxTotalBytes),
    maxFiles: Schema.number().default(d.maxFiles),
    pinned: Schema.array(Schema.string()).role('table').default([...d.pinned]),
    index: Schema.boolean().default(d.index),
    keepDays: Schema.number().default(d.keepDays),
    trashBytes: Schema.number().default(d.trashBytes),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, MemoryConfig>
}

export const memorySection: ConfigSection<MemoryConfig> = {
  key: 'memory',
  default: DEFAULT_MEMORY,
  schema,
  checks: {
    enabled: isBoolean, maxFileBytes: wholeNonNegative, maxTotalBytes: wholeNonNegative, maxFiles: wholeNonNegative,
    pinned: pinnedList, index: isBoolean, keepDays: wholeNonNegative, trashBytes: wholeNonNegative,
  },
}
