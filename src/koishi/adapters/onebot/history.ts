// A OneBot conversation's history (SPEC §19), read backwards through the raw actions, since the
// adapter's getMessageList returns no cursor (docs/platforms.md). The paging follows NapCat's
// GetGroupMsgHistory / GetFriendMsgHistory (NapCatQQ packages/napcat-onebot/action/go-cqhttp/):
// without `message_seq` the latest `count` messages, with it the `count` messages up to and
// including that one, oldest first; NapCat answers at most 50 a call, other implementations 30,
// so a short page is not taken for the start of the history.
import type { Bot } from 'koishi'
import { byTime, type Fetched, type FetchedMessage, PullWindow, type PullRequest } from '../../../history-pull/window'
import { authorOf, decodeSegments, type OneBotMessage } from '../../../inbound/onebot-segments'

/** the most a call asks for (NapCat's cap) */
export const PER_CALL = 50

interface Item {
  message: FetchedMessage
  seq?: number
}

export async function oneBotHistory(bot: Bot, req: PullRequest): Promise<Fetched> {
  const problems: string[] = []
  const request = (bot.internal as any)?._request
  if (typeof request !== 'function') return { messages: [], problems: ['the adapter offers no raw request'], calls: 0 }
  const direct = req.direct || req.channelId.startsWith('private:')
  const peer = Number(direct ? req.channelId.slice('private:'.length) : req.channelId)
  if (!Number.isSafeInteger(peer)) return { messages: [], problems: [`channel ${req.channelId} is no OneBot group or user`], calls: 0 }
  const action = direct ? 'get_friend_msg_history' : 'get_group_msg_history'
  const target = direct ? { user_id: peer } : { group_id: peer }
  const window = new PullWindow(req, String(bot.selfId))
  // every page but the first repeats the message it starts from; each must bring at least one new one
  const maxCalls = Math.ceil(req.max / 10) + 2
  let seq: number | undefined
  let calls = 0
  let malformed = 0
  while (calls < maxCalls && !window.over && !req.expired()) {
    const count = Math.min(PER_CALL, req.max - window.count + (seq === undefined ? 0 : 1))
    let data: any
    try {
      calls++
      data = await call(request, action, { ...target, count, ...(seq === undefined ? {} : { message_seq: seq }) })
    } catch (e: any) {
      problems.push(e?.message ?? String(e))
      break
    }
    const list = data?.messages
    if (!Array.isArray(list)) {
      problems.push(`${action} answered without a list of messages (${describe(list)})`)
      break
    }
    const items: Item[] = []
    for (const raw of list) {
      const item = itemOf(raw)
      if (item) items.push(item)
      else malformed++
    }
    if (!items.length) break
    const page = byTime(items.map(i => ({ ...i, at: i.message.at })))
    let fresh = 0
    for (let i = page.length - 1; i >= 0 && !window.over; i--) if (window.offer(page[i].message) !== 'seen') fresh++
    if (window.over) break
    if (!fresh) {
      // one message seen already is where the history starts; a whole page of them is a page that repeats
      if (page.length > 1) problems.push(`${action} repeated a page (message_seq ${seq}); the pull stops there`)
      break
    }
    const oldest = page[0].seq
    if (oldest === undefined || (seq !== undefined && oldest >= seq)) {
      problems.push(`${action} gave a page that does not go back in time (message_seq ${oldest ?? 'missing'}); the pull stops there`)
      break
    }
    seq = oldest
  }
  if (malformed) problems.push(`${malformed} malformed message(s) skipped (no message_id, time or sender)`)
  return { messages: window.messages(), problems, calls }
}

/** One raw action; a failure in the implementation's words. */
async function call(request: (action: string, params: object) => Promise<any>, action: string, params: object): Promise<unknown> {
  const response = await request(action, params)
  if (!response || typeof response !== 'object') throw new Error(`${action} answered ${describe(response)}`)
  if (response.retcode !== 0) {
    const words = response.wording || response.message
    throw new Error(`${action} failed: retcode ${response.retcode}${words ? ` (${String(words).slice(0, 200)})` : ''}`)
  }
  return response.data
}

/** A history item as a message, or undefined when it lacks what a fact needs. */
function itemOf(raw: unknown): Item | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const m = raw as OneBotMessage
  const id = m.message_id
  if ((typeof id !== 'number' && typeof id !== 'string') || id === '' || typeof m.time !== 'number' || !Number.isFinite(m.time)) return undefined
  if (!Array.isArray(m.message) && typeof m.message !== 'string') return undefined
  const author = authorOf(m)
  if (!author.id) return undefined
  const elements = decodeSegments(m.message)
  // a leading reply is the message it quotes, as the adapter makes it for a live message
  const quote = elements[0]?.type === 'quote' && elements[0].attrs.id ? { id: String(elements.shift()!.attrs.id) } : undefined
  const seq = Number(m.message_seq)
  return {
    message: { id: String(id), at: m.time * 1000, user: author, elements, ...(quote ? { quote } : {}) },
    ...(m.message_seq !== undefined && m.message_seq !== null && Number.isFinite(seq) ? { seq } : {}),
  }
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v)
  return Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`
}
