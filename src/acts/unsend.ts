// `<unsend id/>` (SPEC §23): takes back one of the bot's own messages of this conversation (an id
// send_message returned, this run or before a restart) within the platform's window, once. What can
// be known before is told before the turn's count (an unsend that cannot be made uses none of it);
// the window and a second unsend in the same call are checked again when the act is made.
// A message taken back is marked in the history: the mind reads "[you unsent this]" there.
import { LRUCache } from 'lru-cache'
import type { OutboundDrop, OutboundSend, OutboundServer, OutboundTarget } from '../tools/outbound'
import type { PartPlatform } from '../part/platform'
import type { Clock } from '../util/clock'
import { actsCap, attr, notSupported, refused, UNSEND_TAG } from './tags'

export interface UnsendDeps {
  platform: PartPlatform
  clock: Clock
  perTurn: number
  /** the message `id` was taken back: stored in its conversation's history */
  unsent(target: OutboundTarget, id: string, at: number): Promise<void>
}

export function unsendServer(d: UnsendDeps): OutboundServer {
  const { platform, clock } = d
  // ids taken back in this run (the history's `unsent` entries answer for those before a restart)
  const done = new LRUCache<string, true>({ max: 5000 })
  const keyOf = (send: OutboundSend, id: string) => `${send.bot}\u0000${send.target?.channel}\u0000${id}`

  /** why `id` cannot be taken back now, as far as this side knows */
  function problem(id: string, send: OutboundSend): OutboundDrop | undefined {
    if (done.has(keyOf(send, id)) || send.own?.unsent?.(id)) return { code: 'already_unsent', message: `#${id} was taken back already` }
    const window = platform.acts?.(send.bot)?.unsendWindowMs
    const at = send.own?.sentAt(id)
    if (at === undefined) {
      const recent = window === undefined ? '' : ` in the last ${Math.round(window / 60_000)} minutes`
      return { code: 'not_own', message: `#${id} is not a message you sent here${recent}; you may take back only your own` }
    }
    if (window !== undefined && clock.now() - at > window) {
      return { code: 'too_late', message: `#${id} is older than the platform's ${Math.round(window / 60_000)} minutes; it stays` }
    }
    return undefined
  }

  return {
    tag: UNSEND_TAG.tag,
    lines: '- <unsend id="…"/> takes back your own message (an id send_message returned) within the platform\'s window (QQ: 2 minutes).',
    perTurn: actsCap(d.perTurn),
    refuse(el, send) {
      const id = attr(el, 'id')
      if (!id) return { code: 'not_own', message: '<unsend> needs the id of your own message (from send_message\'s ids)' }
      const no = notSupported(platform.acts?.(send.bot)?.unsend, 'take back messages')
      if (no || !platform.unsend || !send.target) return no ?? { code: 'not_supported', message: 'this platform cannot take back messages' }
      return problem(id, send)
    },
    async resolve(el, send) {
      const id = attr(el, 'id')
      const { bot, target } = send
      const act = async (): Promise<OutboundDrop | undefined> => {
        const why = problem(id, send)
        if (why) return why
        try {
          await platform.unsend!(bot, target!, id)
        } catch (e) {
          return refused(e, `taking back #${id}`)
        }
        done.set(keyOf(send, id), true)
        await d.unsent(target!, id, clock.now()).catch(() => {})
        return undefined
      }
      return { elements: [], act }
    },
  }
}
