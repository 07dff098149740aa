// Which files (and the folders they made) under local:// a private chat wrote (SPEC §22: private to
// that chat wherever they are):
// a book beside local/ in the runtime home, out of local://'s reach, written whole and atomically
// after every change, before the write's result returns. A file not in it is shared (written in a
// group, or by the owner on disk).
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { KeyedFile, parseKeyed } from '../util/keyed-file'
import type { Logger } from '../util/logger'

export const PRIVATE_FILES = 'local-private.json'

export class PrivateFiles {
  private book: KeyedFile<string>
  /** files per chat, so a chat without any shares the groups' memory section */
  private counts = new Map<string, number>()

  /** `home`: the runtime home; `root`: its local/ folder (a file gone from it leaves the book at load). */
  constructor(home: string, private root: string, private logger?: Logger) {
    this.book = new KeyedFile({
      path: join(home, PRIVATE_FILES), field: 'files', what: 'private files book',
      value: v => typeof v === 'string' && v ? v : undefined, logger: logger ?? silent,
    })
  }

  private loaded = false

  /** Reads the book on first use (synchronously, once: a local disk, as memory's first build). */
  private load(): void {
    if (this.loaded) return
    this.loaded = true
    let text: string
    try {
      text = readFileSync(this.book.path, 'utf8')
    } catch (e: any) {
      if (e?.code !== 'ENOENT') this.logger?.warn('%s could not be read: %s', this.book.path, e?.message ?? e)
      return
    }
    try {
      for (const [rel, chat] of parseKeyed(text, 'files', v => typeof v === 'string' && v ? v : undefined)) {
        if (statSync(join(this.root, rel), { throwIfNoEntry: false })) this.set(rel, chat)
      }
    } catch (e: any) {
      this.logger?.warn('%s is not valid: %s', this.book.path, e?.message ?? e)
    }
  }

  /** The private chat (its channel key) a file belongs to; undefined: shared. */
  chatOf(rel: string): string | undefined {
    this.load()
    return this.book.map.get(rel)
  }

  /** Whether a chat wrote any file of its own. */
  has(chat: string): boolean {
    this.load()
    return !!this.counts.get(chat)
  }

  /** Records files or folders as `chat`'s (undefined: shared); resolves once the book is on disk. */
  async mark(rels: readonly string[], chat: string | undefined): Promise<void> {
    const changes = rels.filter(rel => this.chatOf(rel) !== chat)
    if (!changes.length) return
    for (const rel of changes) {
      this.drop(rel)
      if (chat) this.set(rel, chat)
    }
    await this.save()
  }

  /** A file moved (with the folders its move made): it stays whose it was. */
  async moved(from: string, to: string, folders: readonly string[]): Promise<void> {
    this.load()
    const chat = this.chatOf(from)
    this.drop(from)
    for (const rel of [...folders, to]) {
      this.drop(rel)
      if (chat) this.set(rel, chat)
    }
    await this.save()
  }

  /** The folders above `rel` that belong to a private chat (a shared file inside one makes them shared). */
  privateFoldersAbove(rel: string): string[] {
    this.load()
    const out: string[] = []
    for (let at = rel.lastIndexOf('/'); at > 0; at = rel.lastIndexOf('/', at - 1)) {
      if (this.book.map.has(rel.slice(0, at))) out.push(rel.slice(0, at))
    }
    return out
  }

  private async save(): Promise<void> {
    this.book.changed()
    await this.book.idle()
  }

  private set(rel: string, chat: string): void {
    this.book.map.set(rel, chat)
    this.counts.set(chat, (this.counts.get(chat) ?? 0) + 1)
  }

  private drop(rel: string): void {
    const chat = this.book.map.get(rel)
    if (chat === undefined) return
    this.book.map.delete(rel)
    const n = (this.counts.get(chat) ?? 1) - 1
    if (n > 0) this.counts.set(chat, n)
    else this.counts.delete(chat)
  }
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} }
