// The runtime's side of send_message for one conversation (SPEC §4.1): claims, the platform,
// media resolution, typing pauses.
import { isClaimed } from '../claims/match'
import { normalizeTarget } from '../claims/channel-key'
import type { ProfileConfig } from '../config/types'
import type { MediaBytes, ReadScope } from '../resources/types'
import type { SendTarget, ToolHost } from '../tools/types'
import type { OutboundElements } from '../tools/outbound'
import type { Clock } from '../util/clock'
import type { ChannelMemory } from './channel-memory'
import type { Platform } from './types'
import type { Entry } from '../history/entries'
import { isDirectKey } from '../claims/channel-key'
import type { SendRefs } from '../tools/send-refs'
import { selfIdOf } from '../claims/bot-id'

export interface HostSide {
  profile: ProfileConfig
  bot: string
  clock: Clock
  platform: Platform
  random(): number
  /** `scope`: the sending turn's (absent: the conversation's own) */
  media(url: string, signal?: AbortSignal, scope?: ReadScope): Promise<MediaBytes>
  /** the runtime's memory of channels: where a target is, what a send answers, which ids are its own */
  channels: ChannelMemory
  /** a message the platform refused (the runtime's error count) */
  sendFailed?(): void
  /** the elements the runtime's parts serve (`<sticker>`, `<voice>`) */
  elements?: OutboundElements
}

export interface HostConversation {
  /** Channel mode: the conversation's own channel. */
  ownTarget(): SendTarget | undefined
  /** the history in memory: the messages and people a send may point at */
  entries?(): readonly Entry[]
  serialize<T>(task: () => Promise<T>): Promise<T>
}

export function createToolHost(side: HostSide, conv: HostConversation): ToolHost {
  const { profile, platform, clock } = side
  return {
    mode: profile.mode,
    bot: side.bot,
    typing: profile.typing,
    random: () => side.random(),
    now: () => clock.now(),
    ownTarget: () => conv.ownTarget(),
    resolveTarget(t): SendTarget | { error: string } {
      const bot = t.bot?.trim() || side.bot
      const channel = normalizeTarget(t.channel.trim())
      if (!/^[^:\s]+:[^\s*]+$/.test(bot)) return { error: `bot "${bot}" is malformed; write platform:selfId` }
      // SPEC §22: one concrete channel, never a pattern or an empty id
      if (!CONCRETE.test(channel)) return { error: `channel "${channel}" is not one channel; copy it from a [channel ...] header (no "*", no empty id)` }
      if (!isClaimed(profile.claims, bot, channel)) return { error: `channel "${channel}" of bot ${bot} is outside this profile's claims` }
      if (profile.mode === 'cross' && isDirectKey(channel) && !wroteThere(side, conv, bot, channel)) {
        return { error: `nobody has written to bot ${bot} in ${channel}; a private message goes only to someone who wrote to the bot there` }
      }
      return { bot, channel, ...side.channels.placeOf(bot, channel) }
    },
    isOnline: bot => platform.isOnline(bot),
    refs: target => sendRefs(side, target, conv.entries?.() ?? []),
    own: target => ({ sentAt: id => side.channels.sentAt(id, target.channel), unsent: id => side.channels.unsentIn(id, target.channel) }),
    ...(side.elements ? { elements: side.elements } : {}),
    async deliver(target, content) {
      let ids: string[]
      try {
        const replyTo = side.channels.latest(target.bot, target.channel)
        ids = await platform.send({ ...target, content, ...(replyTo ? { replyTo } : {}) })
      } catch (e) {
        side.sendFailed?.()
        throw e
      }
      side.channels.rememberSent(ids, { channel: target.channel, at: clock.now() })
      return ids
    },
    showTyping(target) {
      platform.typing?.(target.bot, target.channel).catch(() => {})
    },
    serialize: task => conv.serialize(task),
    resolveMedia: (url, signal, scope) => side.media(url, signal, scope),
    sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      // the listener leaves with the pause: a conversation's signal lives as long as the conversation
      const onAbort = () => { timer.cancel(); reject(signal.reason) }
      const timer = clock.setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
  }
}

/** A channel key naming one channel: 'group:<id>' or 'private:<id>', the id without white space or '*'. */
const CONCRETE = /^(group|private):[^\s*]+$/

/** Someone wrote to `bot` in `channel`: heard while running, or a fact of it in the history in memory. */
function wroteThere(side: HostSide, conv: HostConversation, bot: string, channel: string): boolean {
  if (side.channels.heardIn(bot, channel)) return true
  return (conv.entries?.() ?? []).some(e => e.type === 'fact' && e.fact.channel === channel && e.fact.bot === bot && !e.fact.notice)
}

/** What a send to `target` may quote and mention: the facts of that channel in memory, and the bot's own sends. */
function sendRefs(side: HostSide, target: SendTarget, entries: readonly Entry[]): SendRefs {
  let seen: { messages: Set<string>; people: Set<string> } | undefined
  // read once per send, and only when it quotes or mentions someone
  const known = () => seen ??= collect(entries, target.channel)
  const selfId = selfIdOf(side.bot)
  const face = side.platform.knowsFace
  return {
    direct: isDirectKey(target.channel),
    // the bot's own sends of this channel only: an id of another conversation points nowhere here (SPEC §23)
    message: id => known().messages.has(id) || side.channels.sentAt(id, target.channel) !== undefined,
    member: id => id === selfId || known().people.has(id),
    ...(face ? { face: attrs => face.call(side.platform, attrs) } : {}),
  }
}

function collect(entries: readonly Entry[], channel: string): { messages: Set<string>; people: Set<string> } {
  const messages = new Set<string>()
  const people = new Set<string>()
  for (const e of entries) {
    if (e.type !== 'fact' || e.fact.channel !== channel) continue
    people.add(e.fact.user.id)
    if (!e.fact.notice) messages.add(e.fact.id)
  }
  return { messages, people }
}
