// Dates in a query (docs/recall.md "Names and dates"): "2023-05-08", "2023/5/8", "2023年5月8日",
// "5月8日", "May 8, 2023", "8 May 2023", "May 2023", "June", "today"/"yesterday"/"今天"/"昨天"/"前天".
// A message whose time (in the chat's zone, budgets.timezone, as the model reads times) falls on
// such a day or month ranks higher, and a query that is only a date finds the messages of that day.
import { dayAround, dayOf, daysBefore, instantOf } from '../util/day'

export interface DateMatch {
  y?: number
  /** 1..12 */
  m?: number
  d?: number
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)'
/** month names that are also common words mean a month only beside a day or a year */
const BARE = /\b(january|february|april|june|july|august|september|october|november|december)\b/gi
const ORD = '(?:st|nd|rd|th)?'

const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1

/** `zone`: budgets.timezone ('' : the host's), which "today" and "yesterday" are days of. */
export function queryDates(query: string, now: number, zone = ''): DateMatch[] {
  const out: DateMatch[] = []
  const add = (y: number | undefined, m: number | undefined, d: number | undefined) => {
    if (m !== undefined && !(m >= 1 && m <= 12)) return
    if (d !== undefined && !(d >= 1 && d <= 31)) return
    if (m === undefined && d === undefined) return
    out.push({ ...(y !== undefined ? { y } : {}), ...(m !== undefined ? { m } : {}), ...(d !== undefined ? { d } : {}) })
  }
  const num = (s: string | undefined) => s === undefined ? undefined : Number(s)
  let rest = query
  const take = (re: RegExp, f: (m: RegExpExecArray) => void) => {
    rest = rest.replace(re, (...args) => {
      f(args.slice(0, -2) as unknown as RegExpExecArray)
      return ' '
    })
  }
  take(/(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/g, m => add(num(m[1]), num(m[2]), num(m[3])))
  take(/(?:(\d{4})年)?(\d{1,2})月(?:(\d{1,2})[日号])?/g, m => add(num(m[1]), num(m[2]), num(m[3])))
  take(/(\d{4})-(\d{1,2})(?![\d-])/g, m => add(num(m[1]), num(m[2]), undefined))
  take(new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})${ORD}\\b(?:,?\\s+(\\d{4}))?`, 'gi'), m => add(num(m[3]), monthOf(m[1]), num(m[2])))
  take(new RegExp(`\\b(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MONTH}\\b\\.?(?:,?\\s+(\\d{4}))?`, 'gi'), m => add(num(m[3]), monthOf(m[2]), num(m[1])))
  take(new RegExp(`\\b${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'gi'), m => add(num(m[2]), monthOf(m[1]), undefined))
  take(BARE, m => add(undefined, monthOf(m[1]), undefined))
  const day = (back: number) => {
    const [y, m, d] = daysBefore(dayOf(now, zone), back).split('-').map(Number)
    add(y, m, d)
  }
  take(/\btoday\b|今天|今日/gi, () => day(0))
  take(/\byesterday\b|昨天|昨日/gi, () => day(1))
  take(/前天/g, () => day(2))
  return out
}

/** Whether a time (seconds) falls on one of the dates, days of `zone` ('' : the host's). */
export function dateTest(dates: DateMatch[], zone = ''): (seconds: number) => boolean {
  const ranges: [number, number][] = []
  const loose: DateMatch[] = []
  for (const d of dates) {
    if (d.y === undefined || d.m === undefined) {
      loose.push(d)
      continue
    }
    const start = instantOf(d.y, d.m, d.d ?? 1, 0, zone) / 1000
    const end = (d.d !== undefined ? instantOf(d.y, d.m, d.d + 1, 0, zone) : instantOf(d.y, d.m + 1, 1, 0, zone)) / 1000
    ranges.push([start, end])
  }
  // messages come in time order: the day of the last one asked answers most of the next ones
  let day: { start: number; end: number; m: number; d: number } | undefined
  return seconds => {
    for (const [a, b] of ranges) if (seconds >= a && seconds < b) return true
    if (!loose.length) return false
    const t = seconds * 1000
    if (!day || t < day.start || t >= day.end) {
      const around = dayAround(t, zone)
      const [, m, d] = around.day.split('-').map(Number)
      day = { start: around.start, end: around.end, m, d }
    }
    const { m, d } = day
    return loose.some(x => (x.m === undefined || m === x.m) && (x.d === undefined || d === x.d))
  }
}
