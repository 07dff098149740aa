// The page's texts in the console's language, and how it writes times, sizes, tokens and costs (SPEC §12, §16).
import { useI18n } from 'vue-i18n'
import type { Spend } from '../src/console-data/types'
import { cachedShare, formatCost, formatShare } from '../src/usage/cost'
import { CONSOLE_WAKE_REASON } from '../src/console-data/wake-reason'
import zhCN from './locales/zh-CN.yml'
import enUS from './locales/en-US.yml'

type T = (key: string, values?: Record<string, unknown>) => string

/** The page's texts in the console's language (zh-CN or en-US). */
export const useText = () => useI18n({ messages: { 'zh-CN': zhCN, 'en-US': enUS } })

export function formatTime(ms: number, locale: string): string {
  const d = new Date(ms)
  const today = new Date().toDateString() === d.toDateString()
  return d.toLocaleString(locale, today ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined) return '—'
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** Token counts: exact while short, then compact (12.3K, 1.2万) so a card stays one line. */
export function formatTokens(n: number, locale: string): string {
  return n < 10_000 ? n.toLocaleString(locale) : new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n)
}

/** "12.3K prompt (45% cached) → 1.2K completion" */
export function tokensText(s: Spend, t: T, locale: string): string {
  return t('spend', { prompt: formatTokens(s.promptTokens, locale), cached: formatShare(cachedShare(s)), completion: formatTokens(s.completionTokens, locale) })
}

/** "cost 0.012 · 12.3K prompt (45% cached) → 1.2K completion": the cost first, and only where a price is set (SPEC §16). */
export function spendText(s: Spend, t: T, locale: string): string {
  const tokens = tokensText(s, t, locale)
  return s.cost === undefined ? tokens : `${t('cost', { cost: formatCost(s.cost) })} · ${tokens}`
}

export { formatCost }

/** A latency: ms below a second, else seconds. */
export const formatLatency = (ms: number) => ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`

/**
 * Why a turn woke or what a message woke, in words: the standard engine's codes translated, an
 * explicit wake-up (`wake:<reason>`) as its own reason; another engine's codes as they are.
 */
export function reasonText(reason: string, t: T): string {
  if (['direct', 'mention', 'quote', 'poke', 'idle', 'schedule'].includes(reason)) return t(`reason.${reason}`)
  const at = reason.indexOf(':')
  const [kind, rest] = at < 0 ? [reason, ''] : [reason.slice(0, at), reason.slice(at + 1)]
  if (kind === 'keyword') return t('reason.keyword', { keyword: rest })
  if (kind === 'wait') return t('reason.wait', { window: rest })
  if (kind === 'name') return t('reason.name', { name: rest })
  if (kind === 'wake') return rest === CONSOLE_WAKE_REASON ? t('reason.console') : rest
  return reason
}
