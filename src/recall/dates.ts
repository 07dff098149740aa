// Dates in a query (docs/recall.md "Names and dates"): "2023-05-08", "2023/5/8", "2023年5月8日",
// "5月8日", "May 8, 2023", "8 May 2023", "May 2023", "June", "today"/"yesterday"/"今天"/"昨天"/"前天".
// A message whose time (in the host's time zone, as the model reads times) falls on such a day
// or month ranks higher, and a query that is only a date finds the messages of that day.

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

export function queryDates(query: string, now: number): DateMatch[] {
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
    const t = new Date(now)
    t.setDate(t.getDate() - back)
    add(t.getFullYear(), t.getMonth() + 1, t.getDate())
  }
  take(/\btoday\b|今天|今日/gi, () => day(0))
  take(/\byesterday\b|昨天|昨日/gi, () => day(1))
  take(/前天/g, () => day(2))
  return out
}

/** Whether a time (seconds) falls on one of the dates. */
export function dateTest(dates: DateMatch[]): (seconds: number) => boolean {
  const ranges: [number, number][] = []
  const loose: DateMatch[] = []
  for (const d of dates) {
    if (d.y === undefined || d.m === undefined) {
      loose.push(d)
      continue
    }
    const start = new Date(d.y, d.m - 1, d.d ?? 1).getTime() / 1000
    const end = (d.d !== undefined ? new Date(d.y, d.m - 1, d.d + 1) : new Date(d.y, d.m, 1)).getTime() / 1000
    ranges.push([start, end])
  }
  return seconds => {
    for (const [a, b] of ranges) if (seconds >= a && seconds < b) return true
    if (!loose.length) return false
    const t = new Date(seconds * 1000)
    return loose.some(d => (d.m === undefined || t.getMonth() + 1 === d.m) && (d.d === undefined || t.getDate() === d.d))
  }
}
