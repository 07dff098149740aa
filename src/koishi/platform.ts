// The chat platform as the runtime sees it, implemented with Koishi bots and its HTTP client.
import { Context, h, Universal } from 'koishi'
import { rawChannel } from '../claims/channel-key'
import { ResourceError } from '../resources/errors'
import type { Platform } from '../runtime/types'
import type { Logger } from '../util/logger'
import { httpGet } from '../resources/schemes/http-fetch'
import { ReplyContexts } from './adapters/qq/reply-context'
import { isFace, outboundFaces } from './presence/faces'
import { markStickersOnSend, outboundStickers } from './presence/stickers-out'
import { actsOf, allowsProactive, needsPassiveReplies, voiceFormatOf } from './presence/capabilities'
import { actsOfBot, pokeOn, reactOn, unsendOn } from './presence/acts'
import { vitsSpeak } from './presence/vits'
import { platformOf } from '../claims/bot-id'
import { withoutUrls } from '../util/without-urls'

/** Koishi's censor service (an optional one, e.g. @koishijs/censor with its rules): `transform` replaces what its rules catch. */
interface CensorService {
  transform(content: h[], session?: unknown): Promise<h[]>
}

/**
 * Outgoing content through the censor service when an owner installed one (SPEC §22). A censor that
 * fails holds the message back: the owner installed it so that nothing unchecked goes out.
 */
async function censored(ctx: Context, markup: string): Promise<string | h[]> {
  const censor = (ctx as unknown as { censor?: CensorService }).censor
  if (!censor?.transform) return markup
  try {
    return await censor.transform(h.parse(markup))
  } catch (e) {
    throw new Error(`the censor service failed, so the message was held back: ${(e as Error)?.message ?? e}`)
  }
}

/** `log`: the service's masking log (a refusal's words may echo a configured secret) */
export function koishiPlatform(ctx: Context, log: Logger): Platform {
  const bot = (id: string) => ctx.bots[id]
  const replies = new ReplyContexts()
  markStickersOnSend(ctx)
  return {
    // The console's sandbox bots have no connection and never report online.
    isOnline: id => bot(id)?.status === Universal.Status.ONLINE || !!bot(id)?.platform?.startsWith('sandbox:'),
    async send(m) {
      const { bot: id, channel, content, guildId } = m
      const b = bot(id)
      if (!b) throw new Error(`bot ${id} is not connected`)
      const target = m.rawChannel ?? rawChannel(channel)
      try {
        const elements = await censored(ctx, outboundStickers(outboundFaces(content, b.platform), b.platform))
        // QQ's passive replies: the send carries the message it answers
        const options = needsPassiveReplies(b.platform) ? replies.options(b, m, target) : undefined
        return await b.sendMessage(target, elements, guildId, options)
      } catch (e) {
        const words = platformWords(e)
        log.warn('a message to %s of bot %s was refused: %s', channel, id, words)
        throw new Error(words)
      }
    },
    knowsFace: attrs => isFace(attrs),
    speak: (text, speaker) => vitsSpeak(ctx, text, speaker),
    voiceFormat: id => voiceFormatOf(platformOf(id)),
    proactive: id => allowsProactive(platformOf(id)),
    acts: id => actsOfBot(bot(id), actsOf(platformOf(id))),
    react: (id, target, messageId, reaction) => worded(log, 'a reaction', id, reactOn(bot(id), target, messageId, reaction)),
    poke: (id, target, userId) => worded(log, 'a poke', id, pokeOn(bot(id), target, userId)),
    unsend: (id, target, messageId) => worded(log, 'an unsend', id, unsendOn(bot(id), target, messageId)),
    async typing(id, channel) {
      // Satori has no typing API; these adapters expose one through their internal client.
      const b = bot(id)
      const raw = rawChannel(channel)
      try {
        if (b?.platform === 'discord') await b.internal?.triggerTypingIndicator?.(raw)
        else if (b?.platform === 'telegram') await b.internal?.sendChatAction?.({ chat_id: raw, action: 'typing' })
      } catch {}
    },
    async fetch(url, { timeoutMs, maxBytes, signal, allowPrivate }) {
      if (!/^https?:\/\//i.test(url)) throw new ResourceError('read_failed', `cannot fetch ${url.slice(0, 80)}: only http(s) sources are fetched`)
      // Koishi's HTTP client carries the instance's proxy settings (and the adapter's own trust, SPEC §5.4).
      if (typeof (ctx as any).http === 'function') {
        const res = await ctx.http(url, {
          method: 'GET', timeout: timeoutMs, signal,
          responseType: (raw: Response) => readCapped(raw, maxBytes),
        })
        return { data: res.data as Buffer, mediaType: res.headers.get('content-type') ?? undefined }
      }
      // Without it the URL is fetched like one the model asked for: private addresses only with http.allowPrivate.
      const res = await httpGet(url, { allowPrivate, timeoutMs, maxBytes, signal })
      return { data: res.data, mediaType: res.mediaType }
    },
  }
}

/** An act the platform refused, thrown again in its own words (a code of ours kept). */
async function worded(log: Logger, what: string, id: string, act: Promise<void>): Promise<void> {
  try {
    await act
  } catch (e: any) {
    const words = platformWords(e)
    log.warn('%s of bot %s was refused: %s', what, id, words)
    throw Object.assign(new Error(words), e?.code === 'not_supported' ? { code: e.code } : {})
  }
}

export async function readCapped(raw: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(raw.headers.get('content-length'))
  if (declared > maxBytes) throw new ResourceError('too_large', `the source is ${declared} bytes; the cap is ${maxBytes}`)
  const chunks: Buffer[] = []
  let size = 0
  const reader = raw.body?.getReader()
  if (!reader) return Buffer.alloc(0)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new ResourceError('too_large', `the source is larger than the cap of ${maxBytes} bytes`)
    }
    chunks.push(Buffer.from(value))
  }
  return Buffer.concat(chunks)
}

/**
 * A refused send in the platform's own words (SPEC §19): Satori throws its own AggregateError
 * class, not the global one, holding each attempt's error; an HTTP error carries the platform's
 * body (QQ's `{ code, message }`); the OneBot adapter's error keeps only the action's retcode. Never a URL.
 */
export function platformWords(e: unknown): string {
  const all = (e as { errors?: unknown[] } | undefined)?.errors
  const first: any = Array.isArray(all) && all.length ? all[0] : e
  const data = first?.response?.data
  if (data && typeof data === 'object') {
    const code = data.code ?? data.retcode ?? data.err_code
    const text = data.message ?? data.wording ?? data.msg
    const status = first.response.status && `HTTP ${first.response.status}`
    if (code !== undefined || text) return [status, code !== undefined && `code ${code}`, text].filter(Boolean).join(': ')
  }
  // koishi-plugin-adapter-onebot's SenderError: the action and its retcode, not the whole request it echoes
  const onebot = /^Error with request (\S+), args: .*, retcode: (-?\d+)$/s.exec(first?.message ?? '')
  if (onebot) return `${onebot[1]} failed: retcode ${onebot[2]}`
  return withoutUrls(String(first?.message || first || 'the platform refused the message'))
}
