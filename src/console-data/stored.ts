// What the console page shows of what is not in memory (docs/console.md): a runtime that is not
// running (after a restart, before its first message) and a conversation that is stored but not
// loaded (never since the start, or unloaded by the budget of loaded conversations). Everything
// is read from the runtime's own storage, read-only; nothing is loaded into a runtime or started.
import { join } from 'node:path'
import { FactAmendments } from '../history/amendments'
import type { HistorySide } from '../history/sides'
import type { PriceOf } from '../usage/cost'
import type { Logger } from '../util/logger'
import { UsageBook } from '../usage/book'
import { systemClock } from '../util/clock'
import { memoryFiles, usageToday } from './summary'
import { TRANSCRIPT_ENTRIES, transcript } from './transcript'
import type { ConversationSummary, RuntimeSummary, Transcript } from './types'

/** The page lists at most this many stored conversations of a runtime, the newest first. */
const MAX_STORED = 1000

export interface StoredRuntimeOptions {
  profile: string
  bot: string
  home: string
  online: boolean
  logger: Logger
  /** budgets.timezone: which day is today */
  timezone: string
}

/** A runtime that is not running: the usage of today and the days before, and the memory folder, from its home. */
export async function storedRuntimeSummary(o: StoredRuntimeOptions): Promise<RuntimeSummary> {
  // the usage book only reads its daily file here; it writes when something is recorded
  const usage = new UsageBook(join(o.home, 'usage'), systemClock, o.logger, undefined, o.timezone)
  await usage.load()
  return {
    profile: o.profile, bot: o.bot, online: o.online, running: false, conversations: 0,
    ...usageToday(usage),
    memory: await memoryFiles(join(o.home, 'local', 'memory')),
  }
}

/** The conversations of `side` that are not loaded (`loaded`), with size and time where storage tells them. */
export async function storedConversations(side: HistorySide, mode: 'channel' | 'cross', loaded: Set<string>): Promise<ConversationSummary[]> {
  const found = (await side.stored()).filter(s => !loaded.has(s.key))
  found.sort((a, b) => (b.modifiedAt ?? 0) - (a.modifiedAt ?? 0) || a.key.localeCompare(b.key))
  return found.slice(0, MAX_STORED).map(s => ({
    key: s.key, mode, busy: false, stored: side.kind,
    ...(s.bytes !== undefined ? { bytes: s.bytes } : {}),
    ...(s.modifiedAt !== undefined ? { modifiedAt: s.modifiedAt } : {}),
  }))
}

/** The newest entries of a stored history, as the transcript of a loaded one; undefined when there is none. */
export async function storedTranscript(side: HistorySide, key: string, priceOf?: PriceOf): Promise<Transcript | undefined> {
  const tail = await side.peek(key, TRANSCRIPT_ENTRIES)
  if (!tail.entries.length && !tail.more) return undefined
  // as a loaded conversation shows it: recalled messages masked (SPEC §19), voices transcribed (SPEC §20)
  const entries = [...tail.entries]
  new FactAmendments().apply(entries)
  return transcript({ key, entries, busy: false, truncated: tail.more, priceOf })
}
