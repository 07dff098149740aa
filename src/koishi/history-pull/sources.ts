// Where each adapter keeps its history (SPEC §19; docs/platforms.md "History after downtime"):
// one entry per platform, and Satori's getMessageList for any other adapter that has it.
import { h, type Bot } from 'koishi'
import type { HistorySource } from '../../history-pull/ports'
import { byTime, type Fetched, type FetchedMessage, PullWindow, type PullRequest } from '../../history-pull/window'
import { oneBotHistory } from '../adapters/onebot/history'
import { QQ_NO_HISTORY } from '../adapters/qq/facts'

type BotSource = (bot: Bot, req: PullRequest) => Promise<Fetched>

/** By `bot.platform`: how its history is read, or why it cannot be (said where capabilities are shown). */
const SOURCES: Record<string, BotSource | string> = {
  onebot: oneBotHistory,
  qq: QQ_NO_HISTORY,
}

/** The history source of `bot`, or why it has none. */
export function historySource(bot: Bot): HistorySource | string {
  const own = SOURCES[bot.platform] ?? (typeof (bot as any).getMessageList === 'function' ? satoriHistory : undefined)
  if (typeof own === 'string') return own
  if (own) return req => own(bot, req)
  return `${bot.platform}: the adapter has no message history`
}

/**
 * One page of Satori's getMessageList, the latest messages (Discord, Lark, Slack, Zulip), best
 * effort: no paging, since adapters differ in what `next` means and whether they honour `limit`.
 */
export async function satoriHistory(bot: Bot, req: PullRequest): Promise<Fetched> {
  // a private chat known only by its key has no platform channel id to ask with
  if (req.direct && req.channelId === req.channel) return { messages: [], problems: [], calls: 0 }
  let page: any
  try {
    page = await (bot as any).getMessageList(req.channelId, undefined, 'before', req.max)
  } catch (e: any) {
    return { messages: [], problems: [`getMessageList failed: ${e?.message ?? e}`], calls: 1 }
  }
  if (!Array.isArray(page?.data)) return { messages: [], problems: ['getMessageList answered without a list of messages'], calls: 1 }
  const items: FetchedMessage[] = []
  let malformed = 0
  for (const raw of page.data) {
    const m = satoriMessage(raw)
    if (m) items.push(m)
    else malformed++
  }
  const window = new PullWindow(req, String(bot.selfId))
  const sorted = byTime(items)
  for (let i = sorted.length - 1; i >= 0 && !window.over; i--) window.offer(sorted[i])
  return { messages: window.messages(), problems: malformed ? [`${malformed} malformed message(s) skipped (no id, time or author)`] : [], calls: 1 }
}

function satoriMessage(raw: any): FetchedMessage | undefined {
  if (!raw || typeof raw !== 'object' || (typeof raw.id !== 'string' && typeof raw.id !== 'number') || raw.id === '') return undefined
  const at = Number(raw.createdAt ?? raw.timestamp)
  const userId = raw.user?.id
  if (!Number.isFinite(at) || at <= 0 || (typeof userId !== 'string' && typeof userId !== 'number') || userId === '') return undefined
  let elements: h[]
  try {
    elements = Array.isArray(raw.elements) ? raw.elements : h.parse(String(raw.content ?? ''))
  } catch {
    return undefined
  }
  const name = raw.member?.nick || raw.user?.nick || raw.user?.name || String(userId)
  const quote = raw.quote?.id ? { id: String(raw.quote.id) } : undefined
  return { id: String(raw.id), at, user: { id: String(userId), name, ...(raw.user?.isBot ? { isBot: true } : {}) }, elements, ...(quote ? { quote } : {}) }
}
