// The chat platform as the runtime sees it, implemented with Koishi bots and its HTTP client.
import { Context, Universal } from 'koishi'
import { rawChannel } from '../claims/channel-key'
import { ResourceError } from '../resources/errors'
import type { Platform } from '../runtime/types'
import { httpGet } from '../resources/schemes/http-fetch'

export function koishiPlatform(ctx: Context): Platform {
  const bot = (id: string) => ctx.bots[id]
  return {
    // The console's sandbox bots have no connection and never report online.
    isOnline: id => bot(id)?.status === Universal.Status.ONLINE || !!bot(id)?.platform?.startsWith('sandbox:'),
    async send({ bot: id, channel, content, guildId, rawChannel: raw }) {
      const b = bot(id)
      if (!b) throw new Error(`bot ${id} is not connected`)
      try {
        return await b.sendMessage(raw ?? rawChannel(channel), content, guildId)
      } catch (e: any) {
        const first = e instanceof AggregateError ? e.errors[0] : e
        throw new Error(first?.message || String(first))
      }
    },
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
