// The sticker library of a runtime (SPEC §19, docs/stickers.md): a folder of images `<name>.png|gif|
// jpg|jpeg|webp`, each with an optional label file `<name>.json`, and the state file beside them
// (state-book.ts). The folder is looked at before turns (sticker-folder.ts: only what changed is
// read again) and its stickers made from what is known of the files (catalog.ts); an image is
// known by the sha256 of its bytes, so the same image under two names is one sticker (the first
// name wins). Here: the library's API, its queue of scans, and the changes the owner and the
// learner make (states, labels, added and removed images).
import { createHash } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { extensionOf, sniffMediaType } from '../resources/media-type'
import { atomicWrite } from '../util/atomic-write'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import { catalogOf, EMPTY_CATALOG, type Catalog } from './catalog'
import { labelText, type Label } from './label'
import { StateBook, STATE_FILE, type StickerSource, type StickerState } from './state-book'
import { MAX_STICKER_BYTES, STICKER_NAME } from './sticker-files'
import { ReportOnce, StickerFolder } from './sticker-folder'
import type { Sticker, StickerShelf } from './types'
import { IMAGE_EXTENSIONS, IMAGE_TYPES } from '../resources/image-types'

export { MAX_STICKER_BYTES } from './sticker-files'
export { IMAGE_EXTENSIONS }
export { MAX_STICKERS } from './sticker-folder'

/** the folder is looked at no more often than this (a busy bot starts many turns a second) */
const CHECK_EVERY_MS = 2000

export interface StickerLibraryOptions {
  dir: string
  logger: Logger
  clock: Clock
  maxBytes?: number
  checkEveryMs?: number
}

export class StickerLibrary implements StickerShelf {
  readonly dir: string
  readonly state: StateBook
  /** bumped when what the mind is shown changes: names, labels, states (the prompt section, search) */
  version = 0
  /** called after a scan that changed the library (the labeller looks for unlabelled stickers) */
  onScan?: () => void
  private catalog: Catalog = EMPTY_CATALOG
  private folder: StickerFolder
  private report: ReportOnce
  private checked = -Infinity
  private queue = new SerialQueue()
  private readonly maxBytes: number

  constructor(private o: StickerLibraryOptions) {
    this.dir = o.dir
    this.maxBytes = o.maxBytes ?? MAX_STICKER_BYTES
    this.state = new StateBook(join(o.dir, STATE_FILE), o.logger)
    this.report = new ReportOnce(o.logger)
    this.folder = new StickerFolder(o.dir, this.maxBytes, this.report)
  }

  /**
   * Before a turn: a file added, removed or renamed changes the folder's mtime, seen at once (one
   * stat); a file changed in place is seen by the look at every file, at most every few seconds.
   */
  prepare(): Promise<void> {
    const t = this.o.clock.monotonic()
    if (t - this.checked >= (this.o.checkEveryMs ?? CHECK_EVERY_MS)) {
      this.checked = t
      return this.scan()
    }
    return this.queue.run(async () => {
      if (await this.folder.moved()) await this.scanNow().catch(() => { this.checked = -Infinity })
    })
  }

  /** Looks at the folder now; never throws (a problem is logged and the library keeps what it had). */
  scan(): Promise<void> {
    return this.queue.run(async () => {
      try {
        await this.scanNow()
      } catch (e: any) {
        this.report.say(`scan:${e?.message}`, 'warn', 'stickers: the folder %s could not be read: %s', this.dir, e?.message ?? e)
      }
    })
  }

  private async scanNow(): Promise<void> {
    const [images] = await Promise.all([this.folder.read(), this.state.refresh()])
    const { folder } = this
    const catalog = catalogOf({ dir: this.dir, images, known: folder.images, labels: folder.labels, state: this.state, report: this.report })
    const changed = catalog.signature !== this.catalog.signature
    this.catalog = catalog
    if (!changed) return
    this.version++
    this.onScan?.()
  }

  /** Every sticker, any state, sorted by name. */
  list(): readonly Sticker[] {
    return this.catalog.all
  }

  /** The approved stickers, sorted by name: what the mind may send. */
  approved(): Sticker[] {
    return this.catalog.all.filter(s => s.state === 'approved')
  }

  /** Stickers with no label file at all (a bad one is the owner's to mend): for the vision model. */
  unlabelled(): Sticker[] {
    return this.catalog.all.filter(s => s.state !== 'banned' && !this.folder.labels.has(s.name))
  }

  byName(name: string): Sticker | undefined {
    const s = this.catalog.names.get(name.trim())
    return s?.state === 'approved' ? s : undefined
  }

  /** Any state, banned included (an inbound image that is a banned sticker is still recognised). */
  byHash(sha256: string): Sticker | undefined {
    return this.catalog.hashes.get(sha256)
  }

  /** A sticker by name in any state (the console, the sticker:// scheme). */
  named(name: string): Sticker | undefined {
    return this.catalog.names.get(name)
  }

  bytes(sticker: Sticker): Promise<Buffer> {
    return readFile(sticker.path)
  }

  used(sticker: Sticker, at: number): void {
    this.state.use(sticker.sha256, sticker.name, at)
    const s = this.catalog.hashes.get(sticker.sha256)
    for (const x of new Set([sticker, s])) if (x) Object.assign(x, { uses: (x.uses ?? 0) + 1, lastUsed: at })
  }

  /** The owner approves, waits or bans a sticker (the console). */
  async setState(sticker: Sticker, state: StickerState): Promise<void> {
    this.state.set(sticker.sha256, { name: sticker.name, state })
    await this.state.idle()
    await this.scan()
  }

  /** Writes the sticker's label file (the owner's edit on the console, or the vision model's label). */
  async setLabel(name: string, label: Label): Promise<void> {
    await atomicWrite(join(this.dir, `${name}.json`), labelText(label))
    await this.scan()
  }

  /**
   * Adds an image (a learned sticker): written as `<name>.<ext>` with its record. An image the
   * library has already is not added again: that sticker is returned. Throws when it is no image
   * of a kind a sticker may be, too big, or badly named.
   */
  async add(name: string, data: Buffer, o: { state: StickerState; source: StickerSource }): Promise<Sticker> {
    const type = sniffMediaType(data)
    if (!type || !IMAGE_TYPES.has(type)) throw new Error(`not a PNG, GIF, JPEG or WebP image (${type ?? 'unrecognised bytes'})`)
    if (data.length > this.maxBytes) throw new Error(`${data.length} bytes, over the ${this.maxBytes} a sticker may have`)
    if (!STICKER_NAME.test(name)) throw new Error(`"${name}" cannot be a sticker's name`)
    await this.queue.idle()
    const sha256 = createHash('sha256').update(data).digest('hex')
    const had = this.catalog.hashes.get(sha256)
    if (had) return had
    if (this.catalog.names.has(name)) throw new Error(`a sticker is named "${name}" already`)
    this.state.set(sha256, { name, state: o.state, source: o.source })
    await this.state.idle()
    await atomicWrite(join(this.dir, `${name}${extensionOf(type)}`), data)
    await this.scan()
    const got = this.catalog.hashes.get(sha256)
    if (!got) throw new Error(`"${name}" was written but is not in the library`)
    return got
  }

  /** Deletes the sticker's files and its record (the console). */
  async remove(sticker: Sticker): Promise<void> {
    await rm(sticker.path, { force: true })
    await rm(join(this.dir, `${sticker.name}.json`), { force: true })
    this.state.remove(sticker.sha256)
    await this.state.idle()
    await this.scan()
  }

  /** Resolves when the scan and the state writes asked for so far are done. */
  async idle(): Promise<void> {
    await this.queue.idle()
    await this.state.idle()
  }

  async stop(): Promise<void> {
    await this.queue.idle()
    await this.state.stop()
  }
}
