/*
 * A file as one read sees it, and the reads under it.
 *
 * With `sync` (files of the runtime home, a local disk) the metadata calls (stat, open, fstat,
 * the 8 KiB head) are synchronous: locally they take a few µs, their async forms a thread-pool
 * round trip each (~60 µs here), which made paging slow. So is the one read of a kept text (at
 * most 1 MiB; the decode after it blocks longer), and the one read of a page's window (about
 * 90 KB, a few µs against a thread-pool hop). Without it (host folders, maybe a network mount,
 * where one synchronous call would stall the process) every call is async. Scans (seeking a line,
 * a whole range) are async in both modes and chunked, so a scan through 1 GB never blocks the
 * event loop in one go.
 *
 * Only regular files are opened (SPEC §10): a pipe, socket or device is refused from its stat,
 * and the open is non-blocking, so a file swapped for a pipe after the stat cannot hang it.
 */
import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync, stat as statAsync, statSync, type Stats } from 'node:fs'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { fsError, refuseSpecial } from '../fs-error'
import { CHUNK, type TextCache } from '../text-cache'
import type { FileIndex } from '../line-index'
import { looksBinary } from '../utf8'
import { HEAD_BYTES, WholeText } from '../whole-text'

// O_NONBLOCK: opening a pipe does not wait for a writer (no effect on regular files; absent on Windows)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

export interface OpenOptions {
  /** what later errors name (the URL) */
  subject?: string
  /** synchronous metadata calls, for a local disk only (see the header); default true */
  sync?: boolean
}

/**
 * A file as one read sees it: stat once, the head for sniffing, then the kept text or a
 * descriptor for the page. A kept text means the file is never opened.
 */
export class TextFile {
  private fd = -1
  private sample?: Buffer
  private whole?: WholeText

  private constructor(readonly path: string, public stat: Stats, readonly cache: TextCache, readonly subject: string, readonly sync: boolean) {
    this.whole = stat.isFile() ? cache.text(this.key) : undefined
  }

  /**
   * Stats `path` (the file is opened when first needed); throws the fs error as it is, and
   * forbidden for anything but a regular file or a folder. Later errors name `subject`.
   */
  static async open(path: string, cache: TextCache, options: OpenOptions = {}): Promise<TextFile> {
    const sync = options.sync ?? true
    const subject = options.subject ?? 'the file'
    const stat = sync ? statSync(path) : await call<Stats>((done) => statAsync(path, done))
    refuseSpecial(stat, subject)
    return new TextFile(path, stat, cache, subject, sync)
  }

  get key(): string {
    return `${this.path}\0${this.stat.size}\0${this.stat.mtimeMs}`
  }

  get size(): number {
    return this.stat.size
  }

  /** The first 8 KiB (fewer for a shorter file). */
  async head(): Promise<Buffer> {
    if (this.whole) return this.whole.head
    if (!this.sample) {
      const fd = await this.descriptor()
      const buffer = Buffer.allocUnsafe(Math.min(HEAD_BYTES, this.size))
      try {
        const n = !buffer.length ? 0 : this.sync ? readSync(fd, buffer, 0, buffer.length, 0) : await readAt(fd, buffer, 0, buffer.length, 0)
        this.sample = buffer.subarray(0, n)
      } catch (error) {
        throw fsError(error, this.subject)
      }
    }
    return this.sample
  }

  /**
   * The open descriptor; from then on the stat is the descriptor's own, so a file swapped since
   * the stat is not mixed up (and one swapped for a pipe or device is refused).
   */
  async descriptor(): Promise<number> {
    if (this.fd < 0) {
      try {
        this.fd = this.sync ? openSync(this.path, OPEN_FLAGS) : await call<number>((done) => open(this.path, OPEN_FLAGS, done))
        const stat = this.sync ? fstatSync(this.fd) : await call<Stats>((done) => fstat(this.fd, done))
        refuseSpecial(stat, this.subject)
        if (stat.size !== this.stat.size || stat.mtimeMs !== this.stat.mtimeMs) this.whole = undefined
        this.stat = stat
      } catch (error) {
        this.close()
        throw fsError(error, this.subject)
      }
    }
    return this.fd
  }

  /** A regular file of at most `bytes` (a folder has no text). */
  fits(bytes: number): boolean {
    return this.stat.isFile() && this.size <= bytes
  }

  /** The kept text, if any. */
  cached(): WholeText | undefined {
    return this.whole
  }

  /** The descriptor for streamed reads: async, but for one `bounded` read with `sync` (see the header). */
  async source(bounded = false): Promise<Source> {
    return { fd: await this.descriptor(), sync: bounded && this.sync }
  }

  /** The file's line index, made on first sight; opens the file, so the key is the descriptor's stat. */
  async index(): Promise<FileIndex> {
    await this.descriptor()
    return this.cache.index(this.key, this.size)
  }

  /** looksBinary of the head, remembered with the kept text. */
  async looksBinary(): Promise<boolean> {
    if (this.whole) return this.whole.binary ??= looksBinary(this.whole.head)
    return looksBinary(await this.head())
  }

  /**
   * Reads and decodes the whole file and keeps it; for files that fit the cache's onContinue.
   * With `sync` the read is synchronous: one read of at most 1 MiB takes tens of µs locally
   * against 60-250 µs of waiting for the thread pool here, and the decode right after blocks
   * longer anyway.
   */
  async load(): Promise<WholeText> {
    if (this.whole) return this.whole
    const file = { fd: await this.descriptor(), sync: this.sync }
    const head = await this.head()
    const size = this.size
    const read = async (bytes: Buffer) => {
      head.copy(bytes, 0, 0, Math.min(head.length, size))
      const n = head.length >= size ? size : head.length + await readFully(file, bytes, head.length, size - head.length, head.length)
      return new WholeText(bytes.subarray(0, n))
    }
    // the spare chunk buffers are already mapped; a fresh buffer per load would fault its pages in
    this.whole = size <= CHUNK ? await this.cache.withChunk(read) : await read(Buffer.allocUnsafe(size))
    this.cache.keep(this.key, this.whole)
    return this.whole
  }

  close(): void {
    if (this.fd >= 0 && this.sync) closeSync(this.fd)
    else if (this.fd >= 0) close(this.fd, () => {})
    this.fd = -1
  }
}

/**
 * Runs `use` on the file `opened` by the caller, or on `path` opened (with synchronous metadata
 * calls: a local file) and closed here.
 */
export async function withFile<T>(path: string, opened: TextFile | undefined, cache: TextCache, use: (file: TextFile) => Promise<T>): Promise<T> {
  let file = opened
  try {
    file ??= await TextFile.open(path, cache)
    if (file.stat.isDirectory()) throw new ResourceError('read_failed', `${clip(file.subject)} is a folder, not a file`)
    return await use(file)
  } catch (error) {
    throw fsError(error, file?.subject)
  } finally {
    if (!opened) file?.close()
  }
}

/** A callback-style fs call as a promise (the descriptor calls have no promise form). */
function call<T>(run: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => error ? reject(error) : resolve(value)))
}

function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, length, position, (error, bytesRead) => error ? reject(error) : resolve(bytesRead))
  })
}

/** An open file; `sync` only for a bounded read of a local file (a kept text, a page window). */
export interface Source {
  fd: number
  sync: boolean
}

export async function readFully(file: Source, buffer: Buffer, start: number, length: number, position: number): Promise<number> {
  let done = 0
  while (done < length) {
    const bytesRead = file.sync
      ? readSync(file.fd, buffer, start + done, length - done, position + done)
      : await readAt(file.fd, buffer, start + done, length - done, position + done)
    if (!bytesRead) break
    done += bytesRead
  }
  return done
}
