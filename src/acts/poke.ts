// `<poke id/>` (SPEC §23): a poke of a member who wrote in this group, or of the private chat's
// person; one poke per person a turn (a flurry of pokes is a nuisance, whatever the model proposes).
import type { OutboundServer } from '../tools/outbound'
import type { PartPlatform } from '../part/platform'
import { actsCap, attr, notSupported, POKE_TAG, refused } from './tags'

export function pokeServer(platform: PartPlatform, perTurn: number): OutboundServer {
  return {
    tag: POKE_TAG.tag,
    lines: '- <poke id="…"/> pokes someone who wrote here (戳一戳), at most once a turn each; no chat message.',
    perTurn: actsCap(perTurn),
    // told before the turn's count: a poke that cannot be made uses none of it
    refuse(el, send) {
      const id = attr(el, 'id')
      if (!id) return { code: 'unknown_member', message: '<poke> needs the id of a member (the number after their name)' }
      const no = notSupported(platform.acts?.(send.bot)?.poke, 'poke')
      if (no || !platform.poke || !send.target) return no ?? { code: 'not_supported', message: 'this platform cannot poke' }
      const { bot, target } = send
      const self = bot.slice(bot.indexOf(':') + 1)
      const here = send.refs?.direct ? target.channel === `private:${id}` : id !== self && (send.refs?.member(id) ?? false)
      if (!here) return { code: 'unknown_member', message: `${id} has not written here; poke someone who has` }
      return undefined
    },
    async resolve(el, send) {
      const id = attr(el, 'id')
      const { bot, target } = send
      if (send.firstInTurn && !send.firstInTurn(`poke\u0000${target!.channel}\u0000${id}`)) {
        return { dropped: { code: 'poke_repeat', message: `${id} was poked already this turn; once is enough` } }
      }
      return { elements: [], act: () => platform.poke!(bot, target!, id).then((): undefined => undefined, e => refused(e, `the poke of ${id}`)) }
    },
  }
}
