// The elements of SPEC §23 as send_message's allow-list knows them, whether acts are on or off,
// and what the acts share: one count a turn, the drops every act may end in.
import type { OutboundDrop, OutboundTag } from '../tools/outbound'
import type { PlatformActs } from '../part/platform'

export const REACT_TAG: OutboundTag = {
  tag: 'react', attrs: ['emoji', 'to'], off: { code: 'react_off', message: 'reactions are off for this bot' },
}
export const POKE_TAG: OutboundTag = {
  tag: 'poke', attrs: ['id'], off: { code: 'poke_off', message: 'pokes are off for this bot' },
}
export const UNSEND_TAG: OutboundTag = {
  tag: 'unsend', attrs: ['id'], off: { code: 'unsend_off', message: 'unsending is off for this bot' },
}

/** the count all acts of a turn share (TurnState.elementsSent) */
export const ACTS_COUNT = 'acts'

export function actsCap(perTurn: number): { cap: number; over: OutboundDrop; key: string } {
  const message = `at most ${perTurn} act${perTurn === 1 ? '' : 's'} a turn (reactions, pokes, unsends together); this one was not made`
  return { cap: perTurn, key: ACTS_COUNT, over: { code: 'acts_limit', message } }
}

/** the platform has no such act: why, in the capability line's words */
export function notSupported(has: true | string | undefined, what: string): OutboundDrop | undefined {
  if (has === true) return undefined
  return { code: 'not_supported', message: `this platform cannot ${what}${has ? ` (${has})` : ''}` }
}

/** the platform refused an act: its own words */
export function refused(e: any, what: string): OutboundDrop {
  return { code: e?.code === 'not_supported' ? 'not_supported' : 'send_failed', message: `${what} failed: ${e?.message ?? e}` }
}

/** what the platform of `bot` has, asked of the platform (absent: nothing) */
export type ActsOf = (bot: string) => PlatformActs | undefined

export function attr(el: { attrs?: Record<string, unknown> }, name: string): string {
  const v = el.attrs?.[name]
  return v === undefined || v === null ? '' : String(v).trim()
}
