// The initiative section of a profile (SPEC §21, docs/initiative.md): its type, its default, its
// console form with texts, and its checks; the parsing of `activeHours` and `timezone` is shared
// with the schedule (active-hours.ts).
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import { knownTimeZone } from '../util/day'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

/** Idle wakes: a turn of a conversation gone quiet, bounded by hours, a day's count, silence. */
export interface InitiativeConfig {
  enabled: boolean
  /** the first idle wake this long after the last human message (its platform time) */
  idleMinutes: number
  /** each unanswered idle wake multiplies the wait (>= 1) ... */
  backoff: number
  /** ... up to this */
  maxIdleMinutes: number
  /** the wait is drawn within ±this share of itself */
  jitter: number
  /** 'HH:MM-HH:MM' local time of `timezone`, may wrap midnight ('20:00-02:00') */
  activeHours: string
  /** IANA name; '': the host's */
  timezone: string
  /** idle wakes per conversation per local day */
  perDay: number
  /** then none until a human writes */
  stopAfterUnanswered: number
}

export const DEFAULT_INITIATIVE: Readonly<InitiativeConfig> = {
  enabled: false, idleMinutes: 240, backoff: 2, maxIdleMinutes: 1440, jitter: 0.1, activeHours: '09:00-23:00', timezone: '', perDay: 2, stopAfterUnanswered: 2,
}

/** An `activeHours` window: minutes of the local day; `end <= start` wraps midnight ('20:00-02:00'). */
export interface HoursWindow {
  start: number
  end: number
}

const HOURS = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/

/** 'HH:MM-HH:MM' (24:00 may end a window), or why not. */
export function parseActiveHours(text: unknown): HoursWindow | string {
  if (typeof text !== 'string') return "must be 'HH:MM-HH:MM'"
  const m = HOURS.exec(text)
  if (!m) return `"${text}" is not 'HH:MM-HH:MM' (e.g. '09:00-23:00', '20:00-02:00')`
  const [h1, m1, h2, m2] = m.slice(1).map(Number)
  if (h1 > 23 || m1 > 59 || h2 > 24 || m2 > 59 || (h2 === 24 && m2 > 0)) return `"${text}" names a time that does not exist`
  const start = h1 * 60 + m1
  const end = h2 * 60 + m2
  if (start === end || (start === 0 && end === 0)) return `"${text}" is an empty window`
  return { start, end }
}

const number = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const wholeAtLeast = (n: number): FieldCheck => v => Number.isInteger(v) && (v as number) >= n ? undefined : `must be a whole number >= ${n}`
const minutes: FieldCheck = v => number(v) && v > 0 ? undefined : 'must be a number of minutes > 0'

function zoneProblem(v: unknown): string | undefined {
  if (typeof v !== 'string') return 'must be an IANA time zone name or empty'
  if (knownTimeZone(v)) return undefined
  return `"${v}" is not a time zone this Node.js knows (an IANA name like Europe/Berlin, or empty for the host's)`
}

const CHECKS: Record<keyof InitiativeConfig, FieldCheck> = {
  enabled: v => typeof v === 'boolean' ? undefined : 'must be true or false',
  idleMinutes: minutes,
  backoff: v => number(v) && v >= 1 ? undefined : 'must be a number >= 1 (each unanswered idle wake waits this many times longer)',
  maxIdleMinutes: minutes,
  jitter: v => number(v) && v >= 0 && v < 1 ? undefined : 'must be a number from 0 to below 1',
  activeHours: v => {
    const w = parseActiveHours(v)
    return typeof w === 'string' ? w : undefined
  },
  timezone: zoneProblem,
  perDay: wholeAtLeast(1),
  stopAfterUnanswered: wholeAtLeast(1),
}

function schema(): Schema<any, InitiativeConfig> {
  const d = DEFAULT_INITIATIVE
  return Schema.object({
    enabled: Schema.boolean().default(d.enabled),
    idleMinutes: Schema.number().default(d.idleMinutes),
    backoff: Schema.number().default(d.backoff),
    maxIdleMinutes: Schema.number().default(d.maxIdleMinutes),
    jitter: Schema.number().default(d.jitter),
    activeHours: Schema.string().default(d.activeHours),
    timezone: Schema.string().default(d.timezone),
    perDay: Schema.number().default(d.perDay),
    stopAfterUnanswered: Schema.number().default(d.stopAfterUnanswered),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, InitiativeConfig>
}

export const initiativeSection: PartSection<InitiativeConfig> = { key: 'initiative', default: DEFAULT_INITIATIVE, schema, checks: CHECKS }
