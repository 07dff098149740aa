// Stickers as a part of their runtime (SPEC §19): the library looked at before each turn, the
// prompt's [stickers] line and section (changing only when the library does, SPEC §16), the
// stickers search finds by their labels, sticker:// for read, and the labeller in the background.
import { isAbsolute, join, resolve } from 'node:path'
import { DEFAULT_STICKERS } from '../config/defaults'
import type { StickersConfig } from '../config/types'
import type { Entry } from '../history/entries'
import type { CallPort } from '../model/calls'
import type { RuntimePart, Searchable } from '../part/runtime-part'
import type { RuntimeView } from '../tools/types'
import type { Clock } from '../util/clock'
import { Labeller } from './labeller'
import { learnerOf, type Learner } from './learner'
import { StickerLibrary } from './library'
import { stickerScheme, stickerUrl } from './scheme'
import { stickerSection } from './section'

/** The library's folder: `stickers.dir` (relative to the working directory), or `<home>/local/stickers/`. */
export function stickersDir(config: StickersConfig, home: string): string {
  if (!config.dir.trim()) return join(home, 'local', 'stickers')
  return isAbsolute(config.dir) ? config.dir : resolve(config.dir)
}

export interface Stickers {
  library: StickerLibrary
  labeller?: Labeller
  part: RuntimePart
}

export function stickersOf(view: RuntimeView, d: { clock: Clock; calls: CallPort }): Stickers | undefined {
  const config = view.profile.stickers ?? DEFAULT_STICKERS
  if (!config.enabled) return undefined
  const library = new StickerLibrary({ dir: stickersDir(config, view.home), logger: view.logger, clock: d.clock })
  const vision = view.profile.attachment.visionModel
  const labeller = vision ? new Labeller({ library, model: vision, calls: d.calls, clock: d.clock, logger: view.logger }) : undefined
  const learner = learnerOf(view, library, d)
  const search = (view.profile.recall as { enabled?: boolean } | undefined)?.enabled !== false
  return { library, labeller, part: stickersPart(library, config, { search, labeller, learner }) }
}

export function stickersPart(library: StickerLibrary, config: StickersConfig, o: { search: boolean; labeller?: Labeller; learner?: Learner }): RuntimePart {
  let section = { version: -1, text: '' }
  let docs: { version: number; searchable: Searchable } | undefined
  return {
    name: 'stickers',
    // the first look once the runtime holds its home, reading only: an inbound sticker is recognised from the first message
    async start() {
      o.learner?.start()
      await library.scan()
    },
    schemes: () => [stickerScheme(library)],
    prompt() {
      if (section.version !== library.version) {
        section = { version: library.version, text: stickerSection(library.approved(), { ...config, search: o.search }) }
      }
      return section.text ? { flags: { stickers: true }, section: section.text } : undefined
    },
    searchable() {
      if (docs?.version !== library.version) {
        const version = library.version
        docs = {
          version,
          searchable: {
            version: `${version}`,
            docs: library.approved().map(s => ({
              url: stickerUrl(s.name), at: s.mtimeMs ?? 0,
              text: [s.name.replace(/[-_.]+/g, ' '), s.description, ...s.tags ?? []].filter(Boolean).join('\n'),
              shown: `<sticker name="${s.name}"/>${s.description ? ` — ${s.description}` : ''}${s.tags?.length ? ` (${s.tags.join(', ')})` : ''}`,
            })),
          },
        }
      }
      return docs.searchable
    },
    async beforeTurn() {
      // labels are written from the first turn on: the runtime has started (its home is its own)
      if (o.labeller && !library.onScan) library.onScan = () => o.labeller!.kick()
      await library.prepare()
      o.labeller?.kick()
    },
    ...o.learner ? { appended: (_: string, entries: readonly Entry[]) => o.learner!.appended(entries) } : {},
    written: async () => { await o.learner?.idle(); await library.idle() },
    async stop() {
      await o.learner?.stop()
      await o.labeller?.stop()
      await library.stop()
    },
  }
}
