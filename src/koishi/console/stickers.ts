// The console's sticker view (SPEC §19, docs/stickers.md "Console"): a runtime's library listed,
// each sticker's image, and the owner's approve, ban, label edit and delete. Authority 4, as the
// page's other listeners. A runtime that is not running has its library opened for the request.
// Delete moves the image and its label into `<folder>/.deleted/` (the scan skips dotted names),
// so a sticker deleted by mistake is put back by moving its file back.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { mkdir, rename } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { sectionOf } from '../../part/section-config'
import { labelOf, stickerSummaries, type StickerView } from '../../console-data/stickers'
import { StickerLibrary } from '../../stickers/library'
import { stickersDir, stickersPart } from '../../stickers/part'
import type { StickerState } from '../../stickers/state-book'
import { systemClock } from '../../util/clock'
import { placeOf } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/stickers'(profile: string, bot: string): Promise<StickerView>
    'kotodama/sticker-image'(profile: string, bot: string, name: string): Promise<string | null>
    'kotodama/sticker-state'(profile: string, bot: string, name: string, state: StickerState): Promise<boolean>
    'kotodama/sticker-label'(profile: string, bot: string, name: string, label: { description?: string; tags?: string[] | string }): Promise<boolean>
    'kotodama/sticker-delete'(profile: string, bot: string, name: string): Promise<boolean>
  }
}

const AUTHORITY = 4
/** images larger than this are not sent to the page */
const MAX_IMAGE_BYTES = 4 << 20
const STATES = new Set<StickerState>(['approved', 'waiting', 'banned'])
export const DELETED_DIR = '.deleted'

export function registerStickers(ctx: Context) {
  const options = { authority: AUTHORITY }
  const logger = ctx.kotodama.log

  /** Runs `use` on the runtime's library, or on one opened for the request; undefined when stickers are off. */
  async function withLibrary<T>(profile: string, bot: string, use: (l: StickerLibrary) => Promise<T>): Promise<T | undefined> {
    const p = await placeOf(ctx, profile, bot)
    const config = sectionOf(stickersPart.section, p.profile)
    if (!config.enabled) return undefined
    const running = p.runtime?.part(stickersPart)?.library
    if (running) {
      await running.scan()
      return use(running)
    }
    const library = new StickerLibrary({ dir: stickersDir(config, p.home), logger, clock: systemClock })
    try {
      await library.scan()
      return await use(library)
    } finally {
      await library.stop()
    }
  }

  ctx.console.addListener('kotodama/stickers', async (profile, bot) => {
    const p = await placeOf(ctx, profile, bot)
    const config = sectionOf(stickersPart.section, p.profile)
    const list = await withLibrary(profile, bot, async l => ({ dir: l.dir, stickers: stickerSummaries(l.list()) }))
    if (!list) return { enabled: false, stickers: [] }
    return { enabled: true, ...list, learn: { enabled: config.learn.enabled, groups: config.learn.groups } }
  }, options)

  ctx.console.addListener('kotodama/sticker-image', async (profile, bot, name) => {
    if (typeof name !== 'string') return null
    return await withLibrary(profile, bot, async l => {
      const s = l.named(name)
      if (!s || s.size > MAX_IMAGE_BYTES) return null
      const data = await l.bytes(s).catch((): undefined => undefined)
      return data ? `data:${s.mediaType};base64,${data.toString('base64')}` : null
    }) ?? null
  }, options)

  ctx.console.addListener('kotodama/sticker-state', async (profile, bot, name, state) => {
    if (typeof name !== 'string' || !STATES.has(state)) return false
    return await withLibrary(profile, bot, async l => {
      const s = l.named(name)
      if (!s) return false
      await l.setState(s, state)
      logger.info('stickers: the owner set %s to %s', s.path, state)
      return true
    }) ?? false
  }, options)

  ctx.console.addListener('kotodama/sticker-label', async (profile, bot, name, raw) => {
    const label = labelOf(raw)
    if (typeof name !== 'string' || !label) return false
    return await withLibrary(profile, bot, async l => {
      if (!l.named(name)) return false
      await l.setLabel(name, label)
      return true
    }) ?? false
  }, options)

  ctx.console.addListener('kotodama/sticker-delete', async (profile, bot, name) => {
    if (typeof name !== 'string') return false
    return await withLibrary(profile, bot, async l => {
      const s = l.named(name)
      if (!s) return false
      const aside = join(l.dir, DELETED_DIR)
      await mkdir(aside, { recursive: true })
      const stamp = Date.now()
      await rename(s.path, join(aside, `${stamp}-${basename(s.path)}`))
      await rename(join(l.dir, `${s.name}.json`), join(aside, `${stamp}-${s.name}.json`)).catch(() => {})
      await l.remove(s)
      logger.info('stickers: the owner deleted %s (moved into %s)', s.path, aside)
      return true
    }) ?? false
  }, options)
}
