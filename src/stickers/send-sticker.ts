// `<sticker name>` in what the mind sends (SPEC §19): an approved sticker of the library becomes an
// `<img>` marked with STICKER_ATTR, which the Koishi edge sends as a sticker where the platform has
// the mark and as a plain image elsewhere; its use is recorded once delivered. At most `maxPerTurn`
// a turn: code holds the cap, the model only proposes. A name the library does not offer (unknown,
// waiting for review, banned: all alike, so a banned one is never sent nor named) is answered with
// a few it does.
import h from '@satorijs/element'
import type { OutboundDrop, OutboundServer, OutboundTag } from '../tools/outbound'
import type { Clock } from '../util/clock'
import { STICKER_ATTR } from '../util/elements'
import type { Sticker, StickerShelf } from './types'

/** names suggested for a name the library does not have */
const SUGGESTED = 6

/** `<sticker>` whether or not this runtime has stickers. */
export const STICKER_TAG: OutboundTag = {
  tag: 'sticker',
  attrs: ['name'],
  off: { code: 'stickers_off', message: 'stickers are off for this bot; say it in words' },
}

export interface SendShelf extends StickerShelf {
  /** the approved stickers, sorted by name (what a wrong name is answered with) */
  approved?(): readonly Sticker[]
}

export function stickerServer(shelf: SendShelf, maxPerTurn: number, clock: Clock): OutboundServer {
  const line = `- <sticker name="…"/> sends a sticker of your library; at most ${maxPerTurn} a turn, more are left out and listed in \`dropped\`.`
  const s = maxPerTurn === 1 ? '' : 's'
  return {
    tag: STICKER_TAG.tag,
    ...maxPerTurn > 0 ? { lines: line } : {},
    perTurn: { cap: maxPerTurn, over: { code: 'sticker_limit', message: `at most ${maxPerTurn} sticker${s} a turn; this one was not sent` } },
    refuse(el) {
      const name = nameOf(el)
      if (!name) return { code: 'unknown_sticker', message: '<sticker> needs the name of a sticker: <sticker name="…"/>' }
      return shelf.byName(name) ? undefined : { code: 'unknown_sticker', message: unknown(name, shelf.approved?.() ?? []) }
    },
    async resolve(el) {
      const sticker = shelf.byName(nameOf(el))
      if (!sticker) return { dropped: { code: 'unknown_sticker', message: unknown(nameOf(el), shelf.approved?.() ?? []) } }
      let data: Buffer
      try {
        data = await shelf.bytes(sticker)
      } catch (e: any) {
        return { dropped: readFailed(sticker, e) }
      }
      const img = h('img', { src: `data:${sticker.mediaType};base64,${data.toString('base64')}`, [STICKER_ATTR]: sticker.name })
      return { elements: [img], sent: () => shelf.used(sticker, clock.now()) }
    },
  }
}

function nameOf(el: h): string {
  const name = el.attrs?.name
  return typeof name === 'string' ? name.trim() : name === undefined ? '' : String(name)
}

function readFailed(sticker: Sticker, e: any): OutboundDrop {
  return { code: 'read_failed', message: `the sticker "${sticker.name}" could not be read (${e?.code ?? e?.message ?? e})` }
}

/** "no sticker …; you may send: a, b, c": names that share a word or character with the asked one first. */
function unknown(name: string, approved: readonly Sticker[]): string {
  const asked = name.trim().slice(0, 64)
  if (!approved.length) return `no sticker named "${asked}": the library has none to send`
  const near = approved.filter(s => alike(asked, s.name))
  const names = [...new Set([...near, ...approved].map(s => s.name))].slice(0, SUGGESTED)
  const more = approved.length > names.length ? ' …; search finds the others by what they show' : ''
  return `no sticker named "${asked}"; you may send: ${names.join(', ')}${more}`
}

function alike(asked: string, name: string): boolean {
  const a = asked.toLowerCase()
  const n = name.toLowerCase()
  if (n.includes(a) || a.includes(n)) return true
  const words = (s: string) => s.split(/[\s_\-.]+/).filter(w => w.length > 1)
  const nw = new Set(words(n))
  if (words(a).some(w => nw.has(w))) return true
  // Chinese names: a shared character counts (开心 and 好开心)
  return [...a].some(ch => /\p{Script=Han}/u.test(ch) && n.includes(ch))
}
