// `<react emoji to/>` (SPEC §23): a reaction to a message of this conversation, by a QQ face's name
// or a Unicode emoji (reactions.ts); the platform's reaction call is made once the message it sits
// in is sent, and nothing goes into the message.
import type { OutboundServer } from '../tools/outbound'
import type { PartPlatform } from '../part/platform'
import { reactionOf } from './reactions'
import { actsCap, attr, notSupported, REACT_TAG, refused } from './tags'

export function reactServer(platform: PartPlatform, perTurn: number): OutboundServer {
  return {
    tag: REACT_TAG.tag,
    lines: '- <react emoji="👍" to="id"/> reacts to message #id with an emoji or a QQ face\'s name (赞, 玫瑰); no chat message.',
    perTurn: actsCap(perTurn),
    // everything that can be known before the act is told here, so a wrong act uses none of the turn's count
    refuse(el, send) {
      const emoji = attr(el, 'emoji')
      if (!reactionOf(emoji)) {
        const asked = emoji.length > 16 ? `${emoji.slice(0, 16)}…` : emoji
        return { code: 'unknown_emoji', message: `QQ has no reaction "${asked}"; write one emoji (👍) or a face's name (赞)` }
      }
      const to = attr(el, 'to')
      if (!to) return { code: 'unknown_message', message: '<react> needs to="id": a message id you saw here' }
      const no = notSupported(platform.acts?.(send.bot)?.react, 'react to messages')
      if (no || !platform.react || !send.target) return no ?? { code: 'not_supported', message: 'this platform cannot react to messages' }
      if (send.refs && !send.refs.message(to)) {
        return { code: 'unknown_message', message: `no message #${to} in this conversation; react to an id you saw here` }
      }
      return undefined
    },
    async resolve(el, send) {
      const to = attr(el, 'to')
      const reaction = reactionOf(attr(el, 'emoji'))!
      const { bot, target } = send
      return {
        elements: [],
        act: () => platform.react!(bot, target!, to, reaction).then((): undefined => undefined, e => refused(e, `the reaction to #${to}`)),
      }
    },
  }
}
