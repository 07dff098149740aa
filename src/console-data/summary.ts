// Runtimes and conversations as the console page lists them (SPEC §12), read from the runtime's
// own state: its loaded conversations, their entries and history files, its usage book (today and
// the days before, SPEC §16).
import { join } from 'node:path'
import { walkNotes } from '../memory/walk'
import type { ConversationLook, RuntimeLook } from './views'
import type { Entry } from '../history/entries'
import type { UsageBook } from '../usage/book'
import { TRANSCRIPT_ENTRIES, conversationUsage, transcript } from './transcript'
import type { ConversationSummary, RuntimeSummary, Transcript } from './types'

export async function runtimeSummary(r: RuntimeLook, online: boolean): Promise<RuntimeSummary> {
  const convs = await r.loaded()
  const assets = await r.assets?.quota?.used().catch((): undefined => undefined)
  const lastAt = convs.map(c => c.entries[c.entries.length - 1]?.at).filter((at): at is number => typeof at === 'number')
  return {
    profile: r.profile.id, bot: r.bot, online, running: true, conversations: convs.length,
    ...usageToday(r.usage),
    ...(lastAt.length ? { lastActivity: Math.max(...lastAt) } : {}),
    memory: await memoryFiles(join(r.home, 'local', 'memory')),
    ...(assets ? { assets } : {}),
  }
}

/** Today's tokens, requests and errors over all models, and the days before, from a runtime's usage book. */
export function usageToday(book: Pick<UsageBook, 'days'>): Pick<RuntimeSummary, 'tokensToday' | 'requestsToday' | 'errorsToday' | 'days'> {
  const days = book.days()
  const today = days[0]
  return {
    tokensToday: today.promptTokens + today.completionTokens,
    requestsToday: today.requests,
    errorsToday: today.errors,
    days,
  }
}

/** Files under the memory folder (SPEC §13), by name; none when it does not exist. */
export async function memoryFiles(dir: string): Promise<{ name: string; size: number }[]> {
  const files = await walkNotes(dir, { limit: 200 })
  return files.map(f => ({ name: f.rel, size: f.size })).sort((a, b) => a.name.localeCompare(b.name))
}

export async function conversationSummaries(r: RuntimeLook): Promise<ConversationSummary[]> {
  const convs = await r.loaded()
  const out = await Promise.all(convs.map(c => conversationSummary(r, c)))
  return out.sort((a, b) => (b.last?.at ?? 0) - (a.last?.at ?? 0))
}

async function conversationSummary(r: RuntimeLook, c: ConversationLook): Promise<ConversationSummary> {
  const facts = c.entries.filter((e): e is Extract<Entry, { type: 'fact' }> => e.type === 'fact')
  const fact = facts[facts.length - 1]?.fact
  const turns = c.entries.reduce((n, e) => e.type === 'turn' || e.type === 'step' ? Math.max(n, e.turn) : n, 0)
  const bytes = await c.storedBytes().catch((): undefined => undefined)
  const last = fact ? transcript({ key: c.key, entries: [facts[facts.length - 1]], busy: false }).items[0] : undefined
  return {
    key: c.key, mode: r.profile.mode, busy: c.busy, turns, entries: c.entries.length, bytes,
    ...(fact?.channelName ? { name: fact.channelName } : {}),
    ...(fact && last?.kind === 'fact' ? { last: { at: fact.at, user: last.user.name, text: last.text.slice(0, 200) } } : {}),
    ...(c.wait ? { wait: { ...c.wait.declaration, armedAt: c.wait.armedAt, factsSeen: c.wait.factsSeen } } : {}),
    ...notesOf(r, c.key),
    usage: conversationUsage(c.entries, r.usage.priceOf),
  }
}

export async function conversationTranscript(r: RuntimeLook, key: string): Promise<Transcript | undefined> {
  const c = (await r.loaded()).find(c => c.key === key)
  if (!c) return undefined
  return transcript({ key, entries: c.entries, busy: c.busy, live: c.live, limit: TRANSCRIPT_ENTRIES, priceOf: r.usage.priceOf })
}

/** What the parts tell of the conversation: its mute (SPEC §19), its next idle wake (§21). */
function notesOf(r: RuntimeLook, key: string): Pick<ConversationSummary, 'muted' | 'idle'> {
  const out: Pick<ConversationSummary, 'muted' | 'idle'> = {}
  for (const p of r.parts ?? []) Object.assign(out, p.status?.(key))
  return out
}
