// `<sticker name>` in what the mind sends (SPEC §19): a sticker of the library becomes an `<img>`
// marked with STICKER_ATTR, which the Koishi edge sends as a sticker where the platform has the mark
// and as a plain image elsewhere. At most `maxPerTurn` a turn: code holds the cap, the model only
// proposes (peers' users complain of a sticker on every line). A sticker that cannot go out
// (stickers off, a name the library has not approved, over the cap) is left out and reported in
// `dropped`; the rest of the message is sent.
import h from '@satorijs/element'
import { STICKER_ATTR } from '../util/elements'
import type { StickerPort } from './types'

export interface StickerDropped { src: string; code: string; message: string }

/** Stickers a call may still pick (the turn's cap less those sent), counted down as they are picked. */
export interface StickerBudget { left: number }

export interface StickerResolution {
  elements: h[]
  /** the stickers picked, in order: the runtime is told of each once its message is delivered */
  picked: string[]
  /** the report of the last `<sticker>` left out, if any */
  lastDropped?: StickerDropped
}

const shown = (el: h) => h(el.type, el.attrs).toString().slice(0, 120)

/** The elements with each `<sticker>` made a marked image, or left out and reported in `dropped`. */
export async function resolveStickers(
  elements: h[], port: StickerPort | undefined, budget: StickerBudget, dropped: StickerDropped[],
): Promise<StickerResolution> {
  const result: StickerResolution = { elements: [], picked: [] }
  result.elements = await walk(elements, port, budget, dropped, result)
  return result
}

async function walk(elements: h[], port: StickerPort | undefined, budget: StickerBudget, dropped: StickerDropped[], r: StickerResolution): Promise<h[]> {
  const out: h[] = []
  for (const el of elements) {
    if (el.type === 'sticker') {
      const got = await resolveOne(el, port, budget)
      if ('dropped' in got) {
        r.lastDropped = { src: shown(el), ...got.dropped }
        dropped.push(r.lastDropped)
        continue
      }
      budget.left--
      r.picked.push(got.name)
      out.push(h('img', { src: `data:${got.mediaType};base64,${got.data.toString('base64')}`, [STICKER_ATTR]: got.name }))
      continue
    }
    // (a mark the model writes itself never gets here: send-elements.yml keeps no such attribute)
    out.push(el.children?.length ? h(el.type, el.attrs, await walk(el.children, port, budget, dropped, r)) : el)
  }
  return out
}

async function resolveOne(el: h, port: StickerPort | undefined, budget: StickerBudget) {
  const name = typeof el.attrs?.name === 'string' ? el.attrs.name.trim() : el.attrs?.name === undefined ? '' : String(el.attrs.name)
  const drop = (code: string, message: string) => ({ dropped: { code, message } })
  if (!port) return drop('stickers_off', 'stickers are off for this bot; say it in words')
  if (!name) return drop('unknown_sticker', '<sticker> needs the name of a sticker: <sticker name="…"/>')
  // a wrong name is told before the cap: it would be as wrong next turn
  const refused = port.refuse(name)
  if (refused) return { dropped: refused }
  if (budget.left <= 0) {
    const cap = port.maxPerTurn
    return drop('sticker_limit', `at most ${cap} sticker${cap === 1 ? '' : 's'} a turn; this one was not sent`)
  }
  try {
    return await port.pick(name)
  } catch (e: any) {
    return drop(e?.code ?? 'read_failed', `the sticker "${name}" could not be read: ${e?.message ?? e}`)
  }
}
