// The acts of SPEC §23 through the adapters: OneBot through its internal API (NapCat's
// set_msg_emoji_like, group_poke / friend_poke, delete_msg: shared/notes/platforms.md "Acts on
// NapCat"), other platforms through Satori's createReaction and deleteMessage where their adapter
// has them. Errors are the adapter's; platform.ts words them.
import type { Bot } from 'koishi'
import { rawChannel } from '../../claims/channel-key'
import type { ActReaction, PlatformActs } from '../../part/platform'
import type { OutboundTarget } from '../../tools/outbound'

/** OneBot ids are numbers on the wire (NapCat takes either; the OneBot spec says int32) */
const idOf = (id: string): number | string => /^\d{1,15}$/.test(id) ? Number(id) : id

const where = (t: OutboundTarget) => t.rawChannel ?? rawChannel(t.channel)

/**
 * A OneBot action through the adapter's raw request: its own `_get` keeps only the retcode of a
 * failure, and NapCat's words (`msg not found`, the packet backend missing) are what the mind needs.
 */
async function onebot(bot: Bot, action: string, params: Record<string, unknown>): Promise<void> {
  const r = await bot.internal._request(action, params)
  if (r?.retcode !== 0) throw new Error(`${action}: ${r?.wording || r?.message || 'failed'} (retcode ${r?.retcode})`)
}

class NotSupported extends Error {
  readonly code = 'not_supported'
}

/**
 * What the platform's facts say, less what this bot's adapter lacks: a Satori adapter without
 * createReaction (or deleteMessage) cannot react (or take back), whatever its platform could.
 */
export function actsOfBot(bot: Bot | undefined, facts: PlatformActs): PlatformActs {
  if (!bot || bot.platform === 'onebot') return facts
  const lacks = (method: string) => `${bot.platform}: its adapter has no ${method}`
  return {
    ...facts,
    ...(facts.react === true && typeof bot.createReaction !== 'function' ? { react: lacks('createReaction') } : {}),
    ...(facts.unsend === true && typeof bot.deleteMessage !== 'function' ? { unsend: lacks('deleteMessage') } : {}),
  }
}

export async function reactOn(bot: Bot | undefined, target: OutboundTarget, messageId: string, r: ActReaction): Promise<void> {
  if (!bot) throw new Error('the bot is not connected')
  if (bot.platform === 'onebot') {
    await onebot(bot, 'set_msg_emoji_like', { message_id: idOf(messageId), emoji_id: r.id })
    return
  }
  // a QQ face is QQ's alone; elsewhere only a Unicode emoji has a reaction
  if (r.kind === 'face') throw new NotSupported(`${bot.platform} has no QQ face "${r.shown}"; react with a Unicode emoji`)
  if (typeof bot.createReaction !== 'function') throw new NotSupported(`${bot.platform}: its adapter has no createReaction`)
  await bot.createReaction(where(target), messageId, r.shown)
}

export async function pokeOn(bot: Bot | undefined, target: OutboundTarget, userId: string): Promise<void> {
  if (!bot) throw new Error('the bot is not connected')
  if (bot.platform !== 'onebot') throw new NotSupported(`${bot.platform} has no pokes`)
  if (target.channel.startsWith('private:')) await onebot(bot, 'friend_poke', { user_id: idOf(userId) })
  else await onebot(bot, 'group_poke', { group_id: idOf(where(target)), user_id: idOf(userId) })
}

export async function unsendOn(bot: Bot | undefined, target: OutboundTarget, messageId: string): Promise<void> {
  if (!bot) throw new Error('the bot is not connected')
  if (bot.platform === 'onebot') {
    await onebot(bot, 'delete_msg', { message_id: idOf(messageId) })
    return
  }
  if (typeof bot.deleteMessage !== 'function') throw new NotSupported(`${bot.platform}: its adapter has no deleteMessage`)
  await bot.deleteMessage(where(target), messageId)
}
