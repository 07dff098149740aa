// Looking at a sticker library's folder (docs/stickers.md): the folder is listed again only when
// its mtime changed, and only the files whose size or mtime changed are read again, a few at a
// time. Nothing in the folder can break it: a file that cannot be a sticker is left out with one
// log line (`report`), keyed by its size and mtime so a changed file is looked at again.
import { readdir, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { IMAGE_EXTENSIONS } from '../resources/image-types'
import { BoundedSet } from '../util/bounded-set'
import { Limiter } from '../util/limiter'
import type { Logger } from '../util/logger'
import { readImageFile, readLabelFile, type ImageFile, type LabelFile } from './sticker-files'

/** images in a library at most (the first by name); the rest are left out with one log line */
export const MAX_STICKERS = 5000
/** files read at once: a first scan of a big library must not hold hundreds of images in memory */
const READS_AT_ONCE = 8

/** Log lines said once per key (a file's problem is keyed by its size and mtime: a changed file is looked at again). */
export class ReportOnce {
  private said = new BoundedSet<string>(10_000)

  constructor(private logger: Logger) {}

  say(key: string, level: 'info' | 'warn', format: string, ...args: unknown[]): void {
    if (this.said.has(key)) return
    this.said.add(key)
    this.logger[level](format, ...args)
  }

  /** The next `say` of `key` is said again. */
  forget(key: string): void {
    this.said.delete(key)
  }
}

export class StickerFolder {
  /** what is known of each image file, by file name */
  readonly images = new Map<string, ImageFile>()
  /** what is known of each label file, by sticker name */
  readonly labels = new Map<string, LabelFile>()
  private files: string[] = []
  private dirMark = ''
  private reads = new Limiter(READS_AT_ONCE)

  constructor(private dir: string, private maxBytes: number, private report: ReportOnce) {}

  /** Whether the folder was added to, removed from or renamed in since it was listed (one stat). */
  async moved(): Promise<boolean> {
    const st = await stat(this.dir).catch((): undefined => undefined)
    return (st?.isDirectory() ? `${st.mtimeMs}` : '') !== this.dirMark
  }

  /** Lists the folder if it changed and reads the files that changed; returns the library's image files, by name. */
  async read(): Promise<string[]> {
    const st = await stat(this.dir).catch((e: any) => e?.code === 'ENOENT' ? undefined : Promise.reject(e))
    if (!st?.isDirectory()) {
      this.report.say('missing', 'info', `stickers: %s ${st ? 'is not a folder' : 'does not exist (yet)'}: no stickers`, this.dir)
      this.files = []
      this.dirMark = ''
    } else {
      this.report.forget('missing')
      if (`${st.mtimeMs}` !== this.dirMark) {
        const entries = await readdir(this.dir, { withFileTypes: true })
        this.files = entries.filter(e => (e.isFile() || e.isSymbolicLink()) && !e.name.startsWith('.')).map(e => e.name).sort()
        this.dirMark = `${st.mtimeMs}`
      }
    }
    let images = this.files.filter(f => IMAGE_EXTENSIONS.has(extname(f).toLowerCase()))
    if (images.length > MAX_STICKERS) {
      const line = 'stickers: %s holds %d images; the first %d by name are the library'
      this.report.say(`many:${images.length}`, 'warn', line, this.dir, images.length, MAX_STICKERS)
      images = images.slice(0, MAX_STICKERS)
    }
    const labelNames = new Set(this.files.filter(f => extname(f).toLowerCase() === '.json').map(f => f.slice(0, -5)))
    await Promise.all([
      ...images.map(f => this.reads.run(() => this.readImage(f))),
      ...[...labelNames].map(n => this.reads.run(() => this.readLabel(n))),
    ])
    for (const f of [...this.images.keys()]) if (!images.includes(f)) this.images.delete(f)
    for (const n of [...this.labels.keys()]) if (!labelNames.has(n)) this.labels.delete(n)
    return images
  }

  private async readImage(file: string): Promise<void> {
    const path = join(this.dir, file)
    const known = this.images.get(file)
    const got = await readImageFile(path, file, known, this.maxBytes)
    if (!got) return void this.images.delete(file)
    this.images.set(file, got)
    if (got !== known && got.problem) this.report.say(`image:${file}:${got.size}:${got.mtimeMs}`, 'warn', 'stickers: %s %s; it is left out', path, got.problem)
  }

  private async readLabel(name: string): Promise<void> {
    const got = await readLabelFile(join(this.dir, `${name}.json`), this.labels.get(name))
    if (!got) return void this.labels.delete(name)
    this.labels.set(name, got)
  }
}
