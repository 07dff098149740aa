// `<unsend id/>` (SPEC §23): takes back one of the bot's own messages of this conversation (an id
// send_message returned) within the platform's window, once. Checked when the act is made, after
// the message it sits in is sent, so a message sent earlier in the same call may be taken back.
// A message taken back is marked in the history: the mind reads "[you unsent this]" there.
import { LRUCache } from 'lru-cache'
import type { OutboundDrop, OutboundServer, OutboundTarget } from '../tools/outbound'
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
  // ids already taken back (the history marks them for good; this answers a second unsend in the same run)
  const done = new LRUCache<string, true>({ max: 5000 })
  return {
    tag: UNSEND_TAG.tag,
    lines: '- <unsend id="…"/> takes back your own message (an id send_message returned) within the platform\'s window (QQ: 2 minutes).',
    perTurn: actsCap(d.perTurn),
    refuse(el) {
      return attr(el, 'id') ? undefined : { code: 'not_own', message: '<unsend> needs the id of your own message (from send_message\'s ids)' }
    },
    async resolve(el, send) {
      const has = platform.acts?.(send.bot)
      const no = notSupported(has?.unsend, 'take back messages')
      if (no || !platform.unsend || !send.target) return { dropped: no ?? { code: 'not_supported', message: 'this platform cannot take back messages' } }
      const id = attr(el, 'id')
      const { bot, target, own } = send
      const key = `${bot}\u0000${target.channel}\u0000${id}`
      const act = async (): Promise<OutboundDrop | undefined> => {
        if (done.has(key)) return { code: 'already_unsent', message: `#${id} was taken back already` }
        const at = own?.sentAt(id)
        if (at === undefined) return { code: 'not_own', message: `#${id} is not a message you sent here; you may take back only your own` }
        const window = has?.unsendWindowMs
        if (window !== undefined && clock.now() - at > window) {
          return { code: 'too_late', message: `#${id} is older than the platform's ${Math.round(window / 60_000)} minutes; it stays` }
        }
        try {
          await platform.unsend!(bot, target, id)
        } catch (e) {
          return refused(e, `taking back #${id}`)
        }
        done.set(key, true)
        await d.unsent(target, id, clock.now()).catch(() => {})
        return undefined
      }
      return { elements: [], act }
    },
  }
}
