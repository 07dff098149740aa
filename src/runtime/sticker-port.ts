// send_message's view of the sticker library (SPEC §19): an approved sticker's image by name, and
// its use recorded once delivered. A name the library does not offer (unknown, waiting for review,
// banned: all alike, so a banned one is never sent nor named) is answered with a few it does.
import type { StickersConfig } from '../config/types'
import type { Sticker, StickerShelf } from '../stickers/types'
import type { StickerPick, StickerPort } from '../tools/types'
import type { Clock } from '../util/clock'

/** names suggested for a name the library does not have */
const SUGGESTED = 6

export interface PortShelf extends StickerShelf {
  /** the approved stickers, sorted by name (what a wrong name is answered with) */
  approved?(): readonly Sticker[]
}

export function stickerPort(shelf: PortShelf, config: Pick<StickersConfig, 'maxPerTurn'>, clock: Clock): StickerPort {
  const refuse = (name: string) => shelf.byName(name) ? undefined : { code: 'unknown_sticker', message: unknown(name, shelf.approved?.() ?? []) }
  return {
    maxPerTurn: config.maxPerTurn,
    refuse,
    async pick(name): Promise<StickerPick> {
      const sticker = shelf.byName(name)
      if (!sticker) return { dropped: refuse(name)! }
      try {
        return { name: sticker.name, data: await shelf.bytes(sticker), mediaType: sticker.mediaType }
      } catch (e: any) {
        return { dropped: { code: 'read_failed', message: `the sticker "${sticker.name}" could not be read (${e?.code ?? e?.message ?? e})` } }
      }
    },
    sent(name) {
      const sticker = shelf.byName(name)
      if (sticker) shelf.used(sticker, clock.now())
    },
  }
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
