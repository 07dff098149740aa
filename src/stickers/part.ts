// Stickers as a part (SPEC §19), when `stickers.enabled`: the library looked at before each turn,
// the prompt's [stickers] line and section (changing only when the library does, SPEC §16), the
// stickers search finds by their labels, sticker:// for read, `<sticker name>` in send_message, the
// labeller and the learner in the background. Nothing is read before start: the runtime holds its
// home then.
import PROTOCOL from './protocol.md'
import { isAbsolute, join, resolve } from 'node:path'
import { recallPart } from '../recall/part'
import { memoryPart } from '../memory/part'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart, Searchable } from '../part/runtime-part'
import { stickersSection, type StickersConfig } from './config'
import { Labeller } from './labeller'
import { Learner } from './learner'
import { StickerLibrary } from './library'
import { stickerScheme, stickerUrl } from './scheme'
import { stickerSection } from './section'
import { STICKER_TAG, stickerServer } from './send-sticker'

/** The library's folder: `stickers.dir` (relative to the working directory), or `<home>/local/stickers/`. */
export function stickersDir(config: StickersConfig, home: string): string {
  if (!config.dir.trim()) return join(home, 'local', 'stickers')
  return isAbsolute(config.dir) ? config.dir : resolve(config.dir)
}

export interface StickersPart extends RuntimePart {
  readonly library: StickerLibrary
  readonly labeller?: Labeller
}

interface Pieces {
  library: StickerLibrary
  config: StickersConfig
  /** the search tool is there (recall on) */
  search: boolean
  labeller?: Labeller
  learner?: Learner
}

export const stickersPart: PartPlugin<StickersConfig, StickersPart> = {
  name: 'stickers',
  section: stickersSection,
  outbound: [STICKER_TAG],
  create(scope) {
    const config = scope.config
    // the library's folder is read-only to write, the library on or off (SPEC §22)
    scope.part(memoryPart)?.memory.keeper.readOnly(stickersDir(config, scope.view.home), 'the sticker library')
    if (!config.enabled) return undefined
    const { view, clock, calls, logger } = scope
    const library = new StickerLibrary({ dir: stickersDir(config, view.home), logger, clock })
    const model = view.profile.attachment.visionModel
    const labeller = model ? new Labeller({ library, model, calls, clock, logger }) : undefined
    const learner = config.learn.enabled
      ? new Learner({ library, config: config.learn, assets: view.assets, model, calls, clock, logger, home: view.home, zone: view.timezone })
      : undefined
    // the search tool is offered: recall is listed before stickers
    const search = scope.part(recallPart)?.recall.enabled ?? false
    const server = stickerServer(library, config.maxPerTurn, clock)
    return { ...stickersOf({ library, config, search, labeller, learner }), outbound: () => [server] }
  },
}

function stickersOf(o: Pieces): StickersPart {
  const { library } = o
  let section = { version: -1, text: '' }
  let docs: { version: number; searchable: Searchable } | undefined
  return {
    name: 'stickers',
    library,
    labeller: o.labeller,
    async start() {
      // the first look before the runtime takes messages, reading only: an inbound sticker is recognised at once
      await Promise.all([library.scan(), o.learner?.start()])
    },
    schemes: () => [stickerScheme(library)],
    prompt() {
      if (section.version !== library.version) {
        section = { version: library.version, text: stickerSection(library.approved(), { ...o.config, search: o.search }) }
      }
      return section.text ? { protocol: PROTOCOL, section: section.text } : undefined
    },
    searchable() {
      if (docs?.version !== library.version) docs = { version: library.version, searchable: searchableOf(library) }
      return docs.searchable
    },
    async beforeTurn() {
      // labels are written from the first turn on: the runtime has started (its home is its own)
      if (o.labeller && !library.onScan) library.onScan = () => o.labeller!.kick()
      await library.prepare()
      o.labeller?.kick()
    },
    ...o.learner ? { appended: (_: string, entries) => o.learner!.appended(entries) } : {},
    written: async () => { await o.learner?.idle(); await library.idle() },
    async stop() {
      await o.learner?.stop()
      await o.labeller?.stop()
      await library.stop()
    },
  }
}

/** The approved stickers as documents search finds by their names, descriptions and tags. */
function searchableOf(library: StickerLibrary): Searchable {
  return {
    version: `${library.version}`,
    docs: library.approved().map(s => ({
      url: stickerUrl(s.name), at: s.mtimeMs ?? 0,
      text: [s.name.replace(/[-_.]+/g, ' '), s.description, ...s.tags ?? []].filter(Boolean).join('\n'),
      shown: `<sticker name="${s.name}"/>${s.description ? ` — ${s.description}` : ''}${s.tags?.length ? ` (${s.tags.join(', ')})` : ''}`,
    })),
  }
}
