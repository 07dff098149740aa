// The sticker library of a runtime (SPEC §19, docs/stickers.md): a folder of images `<name>.png|gif|
// jpg|jpeg|webp`, each with an optional label file `<name>.json`, and the state file beside them
// (state-book.ts). The folder is read again only when something in it changed (the folder's mtime,
// or a file's size or mtime), and only the files that changed are read; an image is known by the
// sha256 of its bytes, so the same image under two names is one sticker (the first name wins).
// Nothing in the folder can break it: a file that is not an image, too big, badly named or
// unreadable is left out with one log line, a bad label file leaves the sticker usable by name.
import { createHash } from 'node:crypto'
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { extensionOf, sniffMediaType } from '../resources/media-type'
import { atomicWrite } from '../util/atomic-write'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { Limiter } from '../util/limiter'
import { SerialQueue } from '../util/serial-queue'
import { labelText, parseLabel, type Label } from './label'
import { StateBook, STATE_FILE, type StickerSource, type StickerState } from './state-book'
import type { Sticker, StickerShelf } from './types'
import { IMAGE_EXTENSIONS, IMAGE_TYPES } from '../resources/image-types'
import { BoundedSet } from '../util/bounded-set'

/** larger images are left out (a 30 MB GIF is no sticker, and the platforms refuse it) */
export const MAX_STICKER_BYTES = 10 << 20
/** label files past this are not read */
const MAX_LABEL_BYTES = 64 << 10
/** images in a library at most (the first by name); the rest are left out with one log line */
export const MAX_STICKERS = 5000
/** files read at once: a first scan of a big library must not hold hundreds of images in memory */
const READS_AT_ONCE = 8
/** the folder is looked at no more often than this (a busy bot starts many turns a second) */
const CHECK_EVERY_MS = 2000
/** a name the mind can write in <sticker name="…"/>: no quotes, brackets, ampersands or control characters */
const NAME = /^[^\s"<>&\\/\p{Cc}](?:[^"<>&\\/\p{Cc}]{0,62}[^\s"<>&\\/\p{Cc}])?$/u

export interface StickerLibraryOptions {
  dir: string
  logger: Logger
  clock: Clock
  maxBytes?: number
  checkEveryMs?: number
}

interface FileMark {
  size: number
  mtimeMs: number
}

interface ImageFile extends FileMark {
  sha256?: string
  mediaType?: string
  /** why it is left out */
  problem?: string
}

interface LabelFile extends FileMark {
  label?: Label
  problem?: string
}

const sizeText = (n: number) => n >= 1 << 20 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`
const same = (a: FileMark | undefined, b: FileMark) => !!a && a.size === b.size && a.mtimeMs === b.mtimeMs

export class StickerLibrary implements StickerShelf {
  readonly dir: string
  readonly state: StateBook
  /** bumped when what the mind is shown changes: names, labels, states (the prompt section, search) */
  version = 0
  /** called after a scan that changed the library (the labeller looks for unlabelled stickers) */
  onScan?: () => void
  private images = new Map<string, ImageFile>()
  private labels = new Map<string, LabelFile>()
  private files: string[] = []
  private all: Sticker[] = []
  private names = new Map<string, Sticker>()
  private hashes = new Map<string, Sticker>()
  private dirMark = ''
  private checked = -Infinity
  private signature = ''
  private queue = new SerialQueue()
  private reported = new BoundedSet<string>(10_000)
  private reads = new Limiter(READS_AT_ONCE)
  private readonly maxBytes: number

  constructor(private o: StickerLibraryOptions) {
    this.dir = o.dir
    this.maxBytes = o.maxBytes ?? MAX_STICKER_BYTES
    this.state = new StateBook(join(o.dir, STATE_FILE), o.logger)
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
      const st = await stat(this.dir).catch((): undefined => undefined)
      if ((st?.isDirectory() ? `${st.mtimeMs}` : '') !== this.dirMark) await this.scanNow().catch(() => { this.checked = -Infinity })
    })
  }

  /** Looks at the folder now; never throws (a problem is logged and the library keeps what it had). */
  scan(): Promise<void> {
    return this.queue.run(async () => {
      try {
        await this.scanNow()
      } catch (e: any) {
        this.report(`scan:${e?.message}`, 'warn', 'stickers: the folder %s could not be read: %s', this.dir, e?.message ?? e)
      }
    })
  }

  private async scanNow(): Promise<void> {
    const st = await stat(this.dir).catch((e: any) => e?.code === 'ENOENT' ? undefined : Promise.reject(e))
    if (!st?.isDirectory()) {
      this.report('missing', 'info', `stickers: %s ${st ? 'is not a folder' : 'does not exist (yet)'}: no stickers`, this.dir)
      this.files = []
      this.dirMark = ''
    } else {
      this.reported.delete('missing')
      const mark = `${st.mtimeMs}`
      if (mark !== this.dirMark) {
        const entries = await readdir(this.dir, { withFileTypes: true })
        this.files = entries.filter(e => (e.isFile() || e.isSymbolicLink()) && !e.name.startsWith('.')).map(e => e.name).sort()
        this.dirMark = mark
      }
    }
    let images = this.files.filter(f => IMAGE_EXTENSIONS.has(extname(f).toLowerCase()))
    if (images.length > MAX_STICKERS) {
      this.report(`many:${images.length}`, 'warn', 'stickers: %s holds %d images; the first %d by name are the library', this.dir, images.length, MAX_STICKERS)
      images = images.slice(0, MAX_STICKERS)
    }
    const labelNames = new Set(this.files.filter(f => extname(f).toLowerCase() === '.json').map(f => f.slice(0, -5)))
    await Promise.all([
      ...images.map(f => this.reads.run(() => this.readImage(f))),
      ...[...labelNames].map(n => this.reads.run(() => this.readLabel(n))),
      this.state.refresh(),
    ])
    for (const f of [...this.images.keys()]) if (!images.includes(f)) this.images.delete(f)
    for (const n of [...this.labels.keys()]) if (!labelNames.has(n)) this.labels.delete(n)
    this.build(images)
  }

  private async readImage(file: string): Promise<void> {
    const path = join(this.dir, file)
    const st = await stat(path).catch((): undefined => undefined)
    if (!st?.isFile()) return void this.images.delete(file)
    const mark = { size: st.size, mtimeMs: st.mtimeMs }
    if (same(this.images.get(file), mark)) return
    const got: ImageFile = { ...mark }
    this.images.set(file, got)
    if (st.size > this.maxBytes) {
      got.problem = `is ${sizeText(st.size)}, over the ${sizeText(this.maxBytes)} a sticker may have`
    } else if (!NAME.test(file.slice(0, -extname(file).length))) {
      got.problem = 'has a name <sticker name="…"/> cannot hold (quotes, <, >, &, slashes, control characters, edge spaces, over 64 characters)'
    } else {
      try {
        const data = await readFile(path)
        const type = sniffMediaType(data)
        if (!type || !IMAGE_TYPES.has(type)) got.problem = `is not a PNG, GIF, JPEG or WebP image (${type ?? 'unrecognised bytes'})`
        else Object.assign(got, { sha256: createHash('sha256').update(data).digest('hex'), mediaType: type })
      } catch (e: any) {
        got.problem = `could not be read (${e?.message ?? e})`
      }
    }
    if (got.problem) this.report(`image:${file}:${mark.size}:${mark.mtimeMs}`, 'warn', 'stickers: %s %s; it is left out', path, got.problem)
  }

  private async readLabel(name: string): Promise<void> {
    const path = join(this.dir, `${name}.json`)
    const st = await stat(path).catch((): undefined => undefined)
    if (!st?.isFile()) return void this.labels.delete(name)
    const mark = { size: st.size, mtimeMs: st.mtimeMs }
    if (same(this.labels.get(name), mark)) return
    let got: LabelFile
    if (st.size > MAX_LABEL_BYTES) got = { ...mark, problem: `is ${st.size} bytes, over the ${MAX_LABEL_BYTES} a label file may have` }
    else {
      const parsed = await readFile(path, 'utf8').then(parseLabel, (e: any) => ({ problem: `could not be read (${e?.message ?? e})` }))
      got = { ...mark, ...parsed }
    }
    this.labels.set(name, got)
  }

  /** The stickers from what is known of the files: sorted by file name, the first of a name or of an image wins. */
  private build(images: string[]): void {
    const all: Sticker[] = []
    const names = new Map<string, Sticker>()
    const hashes = new Map<string, Sticker>()
    for (const file of images) {
      const img = this.images.get(file)
      if (!img?.sha256 || !img.mediaType) continue
      const name = file.slice(0, -extname(file).length)
      const had = names.get(name) ?? hashes.get(img.sha256)
      if (had) {
        const why = names.has(name) ? 'has the name of' : 'is the same image as'
        this.report(`dup:${file}:${img.sha256}:${had.path}`, 'info', 'stickers: %s %s %s; that one is the sticker', join(this.dir, file), why, had.path)
        continue
      }
      const rec = this.state.get(img.sha256)
      const lf = this.labels.get(name)
      const sticker: Sticker = {
        name, path: join(this.dir, file), mediaType: img.mediaType, sha256: img.sha256, size: img.size, mtimeMs: img.mtimeMs,
        ...lf?.label, ...(lf?.problem ? { labelProblem: lf.problem } : {}),
        state: rec?.state ?? 'approved', uses: rec?.uses ?? 0, ...(rec?.lastUsed ? { lastUsed: rec.lastUsed } : {}),
        source: rec?.source ?? { kind: 'owner' },
      }
      if (lf?.problem) {
        const path = join(this.dir, `${name}.json`)
        this.report(`label:${name}:${lf.size}:${lf.mtimeMs}`, 'warn', 'stickers: the label file %s %s; the sticker works by its name', path, lf.problem)
      }
      all.push(sticker)
      names.set(name, sticker)
      hashes.set(img.sha256, sticker)
    }
    all.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    this.all = all
    this.names = names
    this.hashes = hashes
    const signature = JSON.stringify(all.map(s => [s.name, s.sha256, s.description, s.tags, s.state, s.labelProblem, s.path]))
    if (signature === this.signature) return
    this.signature = signature
    this.version++
    this.onScan?.()
  }

  /** Every sticker, any state, sorted by name. */
  list(): readonly Sticker[] {
    return this.all
  }

  /** The approved stickers, sorted by name: what the mind may send. */
  approved(): Sticker[] {
    return this.all.filter(s => s.state === 'approved')
  }

  /** Stickers with no label file at all (a bad one is the owner's to mend): for the vision model. */
  unlabelled(): Sticker[] {
    return this.all.filter(s => s.state !== 'banned' && !this.labels.has(s.name))
  }

  byName(name: string): Sticker | undefined {
    const s = this.names.get(name.trim())
    return s?.state === 'approved' ? s : undefined
  }

  /** Any state, banned included (an inbound image that is a banned sticker is still recognised). */
  byHash(sha256: string): Sticker | undefined {
    return this.hashes.get(sha256)
  }

  /** A sticker by name in any state (the console, the sticker:// scheme). */
  named(name: string): Sticker | undefined {
    return this.names.get(name)
  }

  bytes(sticker: Sticker): Promise<Buffer> {
    return readFile(sticker.path)
  }

  used(sticker: Sticker, at: number): void {
    this.state.use(sticker.sha256, sticker.name, at)
    const s = this.hashes.get(sticker.sha256)
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
    if (!NAME.test(name)) throw new Error(`"${name}" cannot be a sticker's name`)
    await this.queue.idle()
    const sha256 = createHash('sha256').update(data).digest('hex')
    const had = this.hashes.get(sha256)
    if (had) return had
    if (this.names.has(name)) throw new Error(`a sticker is named "${name}" already`)
    this.state.set(sha256, { name, state: o.state, source: o.source })
    await this.state.idle()
    await atomicWrite(join(this.dir, `${name}${extensionOf(type)}`), data)
    await this.scan()
    const got = this.hashes.get(sha256)
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

  /** Logs once per key (a file's problem is keyed by its size and mtime: a changed file is looked at again). */
  private report(key: string, level: 'info' | 'warn', format: string, ...args: unknown[]): void {
    if (this.reported.has(key)) return
    this.reported.add(key)
    this.o.logger[level](format, ...args)
  }
}
