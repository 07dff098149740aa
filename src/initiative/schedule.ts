// When a conversation gone quiet gets its next idle wake (SPEC §21): pure, over the state the part
// keeps per conversation, so the rules are tested without a runtime (docs/initiative.md).
import { parseActiveHours, type HoursWindow, type InitiativeConfig } from './config'
import { dayOf, nextDay } from '../util/day'
import { nextOpening } from './active-hours'

const MINUTE = 60_000

/** What the part knows of one conversation; stored as is (initiative.json). */
export interface IdleState {
  /** where an idle turn is asked for (the last human message's channel) */
  channel: string
  /** the platform time of the last human message */
  humanAt?: number
  /** its author's name, for the opening note */
  human?: string
  /** the bot sent a message after the last human message */
  botLast?: boolean
  /** idle wakes since the last human message */
  unanswered: number
  /** the last idle wake */
  idleAt?: number
  /** the local day of the idle wakes counted in `today` */
  day?: string
  today: number
  /** the next idle wake as drawn (jitter included), kept so it does not move at each look */
  due?: number
  /** the rules `due` was drawn under (rulesKey): other rules after a reload draw it again */
  rules?: string
}

/** Why no idle wake is scheduled: a code the console words in its own language, and the reason in English (status, the log). */
export type IdleWhy = 'off' | 'no-human' | 'bot-last' | 'unanswered' | 'no-opening' | 'not-proactive' | 'muted'
export type IdleNext = { at: number } | { none: string; why: IdleWhy; n?: number }

/** The config as the schedule reads it: the window parsed once. */
export interface IdleRules {
  config: InitiativeConfig
  hours: HoursWindow
  /** activeHours' zone: initiative.timezone when set, else budgets.timezone */
  zone: string
  /** perDay's day: budgets.timezone, the one day of kotodama (SPEC §22) */
  dayZone: string
}

/** `dayZone`: budgets.timezone ('' : the host's). */
export function rulesOf(config: InitiativeConfig, dayZone = ''): IdleRules {
  const hours = parseActiveHours(config.activeHours)
  // validate.ts replaced a bad window by the default; this stands in for a config built by hand
  return { config, hours: typeof hours === 'string' ? { start: 9 * 60, end: 23 * 60 } : hours,
    zone: config.timezone || dayZone, dayZone }
}

/** What a drawn wake depends on, as one string: a stored wake drawn under other rules is drawn again. */
export function rulesKey(c: InitiativeConfig, dayZone = ''): string {
  return JSON.stringify([c.activeHours, c.timezone, dayZone, c.idleMinutes, c.backoff, c.maxIdleMinutes, c.jitter, c.perDay, c.stopAfterUnanswered])
}

/** The wait before the next idle wake, before jitter: idleMinutes × backoff^unanswered, at most maxIdleMinutes. */
export function idleDelay(unanswered: number, c: InitiativeConfig): number {
  return Math.min(c.idleMinutes * Math.pow(c.backoff, unanswered), c.maxIdleMinutes) * MINUTE
}

/**
 * The next idle wake of `s`, or why there is none. `random` draws the jitter ([0, 1)). The wait
 * counts from the last idle wake when there was one since the last human message, else from that
 * message; a time outside activeHours moves to the next opening, a day that had perDay moves to
 * the next day's. `now` only marks a wake already due (it fires at `now`, inside the hours).
 */
export function nextIdleAt(s: IdleState, rules: IdleRules, now: number, random: () => number): IdleNext {
  const c = rules.config
  if (!c.enabled) return { none: 'off', why: 'off' }
  if (s.humanAt === undefined) return { none: 'no human message yet', why: 'no-human' }
  if (s.botLast) return { none: 'the bot spoke last', why: 'bot-last' }
  if (s.unanswered >= c.stopAfterUnanswered) {
    return { none: `${s.unanswered} unanswered idle wakes: waiting for a human message`, why: 'unanswered', n: s.unanswered }
  }
  const from = s.unanswered > 0 && s.idleAt !== undefined ? Math.max(s.idleAt, s.humanAt) : s.humanAt
  const spread = 1 + c.jitter * (2 * random() - 1)
  let at = Math.max(now, Math.round(from + idleDelay(s.unanswered, c) * spread))
  for (let guard = 0; guard < 400; guard++) {
    at = nextOpening(at, rules.hours, rules.zone)
    if (s.day !== dayOf(at, rules.dayZone) || s.today < c.perDay) return { at }
    at = nextDay(at, rules.dayZone)
  }
  return { none: 'no opening within a year', why: 'no-opening' }
}

/** `s` after an idle wake at `at`: counted as unanswered and toward the day's perDay. */
export function afterIdleWake(s: IdleState, at: number, rules: IdleRules): IdleState {
  const day = dayOf(at, rules.dayZone)
  return { ...s, unanswered: s.unanswered + 1, idleAt: at, today: s.day === day ? s.today + 1 : 1, day, due: undefined }
}

/** `s` after a human message at platform time `at` by `name`: the schedule starts again. */
export function afterHuman(s: IdleState | undefined, channel: string, at: number, name: string): IdleState {
  const keep = s ? { day: s.day, today: s.today } : { today: 0 }
  if (s?.humanAt !== undefined && at < s.humanAt) return s  // an older (pulled) message changes nothing
  return { channel, humanAt: at, human: name, unanswered: 0, ...keep, ...s?.idleAt !== undefined ? { idleAt: s.idleAt } : {} }
}
