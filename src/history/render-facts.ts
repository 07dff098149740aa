// Facts as the model reads them (SPEC §3).
import type { Fact } from './entries'

const pad = (n: number) => String(n).padStart(2, '0')

export function formatTime(ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function factLine(f: Fact): string {
  // a notice has no message to quote: no #id
  if (f.notice) return `[${formatTime(f.at)}] ${f.user.name} (${f.user.id}) ${f.content}`
  const quote = f.quote ? `(reply to #${f.quote.id}) ` : ''
  return `[${formatTime(f.at)}] ${f.user.name} (${f.user.id}) #${f.id}: ${quote}${f.content}`
}

export function channelHeader(f: Fact): string {
  const name = f.channelName ? ` name=${JSON.stringify(f.channelName)}` : ''
  return `[channel bot=${JSON.stringify(f.bot)} channel=${JSON.stringify(f.channel)}${name}]`
}
