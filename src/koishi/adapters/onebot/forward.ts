// The messages of a OneBot forward, fetched through koishi-plugin-adapter-onebot 6.9.4: its
// `bot.internal._get(action, params)` sends the action on the bot's connection and throws on a
// non-zero retcode (lib/index.js Internal._get; `getForwardMsg` wraps it but keeps only `messages`).
// NapCat (action/go-cqhttp/GetForwardMsg.ts) answers `{ messages }`, each message with its segments
// under `message`; other implementations use `content`. Bounded by a timeout; never throws.
import type { Bot } from 'koishi'
import type { Logger } from '../../../util/logger'
import type { ForwardedMessage, RenderKit } from '../../../inbound/kit'
import { authorOf, decodeSegments, type OneBotMessage } from '../../../inbound/onebot-segments'
import { TIMED_OUT, within } from '../../../util/within'

export const FORWARD_FETCH_MS = 5000

/** The forward fetch of a OneBot bot; undefined for any other bot. */
export function onebotForward(bot: Bot | undefined, log?: Logger): RenderKit['forward'] {
  if (bot?.platform !== 'onebot') return undefined
  return async id => {
    try {
      const internal = (bot as any).internal
      const ask = internal?._get ? internal._get.bind(internal) : undefined
      if (!ask) return undefined
      const data = await within<any>(ask('get_forward_msg', { message_id: id }), FORWARD_FETCH_MS)
      // a silent platform is worth a warning
      if (data === TIMED_OUT) return void log?.warn('forward %s of %s could not be fetched: %s', id, bot.sid, `no answer in ${FORWARD_FETCH_MS} ms`)
      const list: unknown = Array.isArray(data) ? data : data?.messages ?? data?.message
      if (!Array.isArray(list)) return undefined
      return list.filter(m => m && typeof m === 'object').map((m: OneBotMessage): ForwardedMessage => ({
        author: authorOf(m).name,
        elements: decodeSegments(m.message ?? m.content),
        ...(typeof m.time === 'number' ? { at: m.time * 1000 } : {}),
      }))
    } catch (e: any) {
      // a forward the implementation no longer has (NapCat: "消息已过期…") is common: not a warning
      log?.debug('forward %s of %s could not be fetched: %s', id, bot.sid, e?.message ?? e)
      return undefined
    }
  }
}
