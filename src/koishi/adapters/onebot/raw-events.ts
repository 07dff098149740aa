// OneBot payloads the adapter turns into no session (koishi-plugin-adapter-onebot 6.9.4,
// lib/index.js adaptSession: its `default: return` drops NapCat's `group_msg_emoji_like`), read
// from the bot's socket beside the adapter: the client socket of `protocol: 'ws'` (the adapter's
// `socket`) or the server one of `ws-reverse` (the bot's `Symbol(socket)`). `http` has no socket
// to read: such a bot's reactions are not seen (docs/acts.md).
import { type Bot, type Context, Universal } from 'koishi'

type Listener = (event: { data: unknown }) => void
interface Socket { addEventListener(type: 'message', fn: Listener): void; removeEventListener(type: 'message', fn: Listener): void }

/** Calls `fn` with each payload of `bot` whose raw text holds `marker` (only those are parsed). */
export function watchRawEvents(ctx: Context, marker: string, fn: (bot: Bot, payload: Record<string, any>) => void): void {
  // one socket a bot: a reconnect's new socket replaces the old one's entry
  const watched = new Map<Bot, { socket: Socket; listener: Listener }>()
  const attach = (bot: Bot) => {
    if (bot.platform !== 'onebot' || bot.status !== Universal.Status.ONLINE) return
    const socket = socketOf(bot)
    const was = watched.get(bot)
    if (!socket || was?.socket === socket) return
    was?.socket.removeEventListener('message', was.listener)
    const listener: Listener = event => {
      const text = typeof event.data === 'string' ? event.data : String(event.data)
      if (!text.includes(marker)) return
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch {
        return
      }
      if (payload && typeof payload === 'object' && 'post_type' in payload) fn(bot, payload as Record<string, any>)
    }
    socket.addEventListener('message', listener)
    watched.set(bot, { socket, listener })
  }
  for (const bot of ctx.bots) attach(bot)
  ctx.on('bot-status-updated', bot => attach(bot))
  ctx.on('bot-removed', bot => {
    const was = watched.get(bot)
    was?.socket.removeEventListener('message', was.listener)
    watched.delete(bot)
  })
  ctx.on('dispose', () => {
    for (const { socket, listener } of watched.values()) socket.removeEventListener('message', listener)
    watched.clear()
  })
}

function socketOf(bot: Bot): Socket | undefined {
  const client = (bot.adapter as any)?.socket
  if (isSocket(client)) return client
  const key = Object.getOwnPropertySymbols(bot).find(s => s.description === 'socket')
  const server = key ? (bot as any)[key] : undefined
  return isSocket(server) ? server : undefined
}

const isSocket = (s: any): s is Socket => typeof s?.addEventListener === 'function' && typeof s?.removeEventListener === 'function'
