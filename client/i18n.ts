import { useI18n } from 'vue-i18n'
import zhCN from './locales/zh-CN.yml'
import enUS from './locales/en-US.yml'

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

/**
 * Why a turn woke or what a message woke, in words: the standard engine's codes translated, an
 * explicit wake-up (`wake:<reason>`) as its own reason; another engine's codes as they are.
 */
export function reasonText(reason: string, t: (key: string, values?: Record<string, unknown>) => string): string {
  if (reason === 'direct' || reason === 'mention' || reason === 'quote') return t(`reason.${reason}`)
  const at = reason.indexOf(':')
  const [kind, rest] = at < 0 ? [reason, ''] : [reason.slice(0, at), reason.slice(at + 1)]
  if (kind === 'keyword') return t('reason.keyword', { keyword: rest })
  if (kind === 'wait') return t('reason.wait', { window: rest })
  if (kind === 'wake') return rest
  return reason
}
