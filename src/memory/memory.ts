// A runtime's memory (SPEC §13): the writer of local://, the quotas, and the memory section of
// every request, built from a cache rather than from the disk.
//
// Decisions where the SPEC is silent:
// - Every write of a runtime and every look at the disk for the cache run one after another on
//   one queue, so the quotas see every earlier write, and no two writes of one file interleave.
// - The cache is built on first use (the first turn, write or status), by one walk of local/.
//   A write updates it from what it wrote. Before each turn the folders it knows are stat'ed, and
//   the pinned files: a folder whose mtime changed is listed again (files the owner added, removed
//   or saved), a pinned file that changed is read again. A request itself never touches the disk.
import { realpathSync, statSync } from 'node:fs'
import type { MemoryConfig } from './config'
import { writeErrorResult } from '../resources/center'
import { ResourceError } from '../resources/errors'
import { resolveWritable } from '../resources/file-root'
import { formatFileUrl, parseFileUrl } from '../resources/file-url'
import { looksBinary, type TextCache } from '../resources/text'
import { decode } from '../resources/utf8'
import type { LocalReadGuard } from '../resources/schemes/local'
import type { ReadScope, WriteOptions, WriteRequest, WriteResult } from '../resources/types'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import { LocalFiles, readHead } from './local-files'
import type { LocalPrivacy } from './local-privacy'
import { partnerOf } from '../people/people-path'
import { memorySection, type IndexEntry, type PinnedView } from './section'
import { writeLocal } from './write-local'
import { TrashKeeper } from './trash-keeper'
import { restoreInto } from './trash/restore'
import type { TrashEntry } from './trash/entry'
import { systemClock, type Clock } from '../util/clock'
import { LRUCache } from 'lru-cache'

/** Bytes of a pinned file read for the section: more than its budget can show in any script. */
const PINNED_READ_BYTES = 64 << 10
const FOLDER = 'memory'
/** sections kept at once: the shared one and the private chats' that have files of their own */
const MAX_VIEWS = 64

export interface MemoryOptions {
  /** the runtime home's local/ folder (it exists) */
  root: string
  config: MemoryConfig
  /** the resource center's text cache: a written file's kept text is dropped from it */
  texts: TextCache
  logger?: Logger
  /** what each chat may see and write (SPEC §21 private sections, §22 what one chat learns) */
  guard?: LocalPrivacy
  /** files under local/ the index leaves out (people/, shown only in openings) */
  unlisted?: (rel: string) => boolean
  /** the trash's prune and its entries' times */
  clock?: Clock
}

interface Pinned extends PinnedView {
  rel?: string
  path?: string
  size?: number
  mtimeMs?: number
}

export interface MemoryStats {
  bytes: number
  files: number
}

export class Memory {
  private queue = new SerialQueue()
  private local?: LocalFiles
  private pinned: Pinned[] = []
  /** the section by view: '' every shared chat, a private chat's key its own (SPEC §22) */
  private rendered = new LRUCache<string, string>({ max: MAX_VIEWS })
  /** URLs of indexed files by path (formatting 1,000 of them again would cost ms at every change) */
  private urls = new Map<string, string>()

  /** the trash of removed and overwritten files, the read-only folders (SPEC §22) */
  readonly keeper: TrashKeeper

  constructor(readonly options: MemoryOptions) {
    this.keeper = new TrashKeeper(options.root, () => this.config, options.clock ?? systemClock, options.logger)
  }

  get config(): MemoryConfig {
    return this.options.config
  }

  /** The write handler of local:// (SPEC §13); never throws. */
  write(url: string, request: WriteRequest, opts: WriteOptions = {}): Promise<WriteResult> {
    return this.queue.run(async () => {
      try {
        if (opts.signal?.aborted) throw new ResourceError('write_failed', 'not written: the call was aborted')
        const local = this.ensure()
        const pinned = (rel: string) => this.pinned.some(p => p.rel === rel)
        const w = this.options.guard?.prepare(url, request, opts.scope, pinned) ?? { url, request }
        const privateTo = (rel: string) => this.options.guard?.files.chatOf(rel)
        const ctx = {
          files: local, limits: this.config, changed: (path: string, rel: string) => this.changed(path, rel), rules: w.rules,
          keep: this.keeper.keeper(opts.scope, privateTo), readOnly: this.keeper.check(local.root),
        }
        const done = await writeLocal(ctx, w.url, w.request)
        // a file became private or shared, or moved: what each chat's section shows
        this.rendered.clear()
        return done
      } catch (e) {
        return writeErrorResult(e)
      }
    })
  }

  /** What local:// is made of: its root, this writer (when memory is on), the read guard. */
  schemeDeps(): { localRoot: string; localWrite?: Memory['write']; localGuard?: LocalReadGuard } {
    const guard = this.options.guard
    const readGuard: LocalReadGuard | undefined = guard && {
      url: (url, scope) => scope && guard.people.read(url, partnerOf(scope)),
      file: (rel, url, scope) => guard.checkRead(rel, url, scope),
      hides: (rel, scope) => !guard.visible(rel, scope),
    }
    return {
      localRoot: this.options.root,
      ...this.config.enabled ? { localWrite: this.write.bind(this) } : {},
      ...readGuard ? { localGuard: readGuard } : {},
    }
  }

  /** Before a turn: the first build, or the owner's changes since the last look. */
  prepare(): Promise<void> {
    if (!this.config.enabled) return Promise.resolve()
    return this.queue.run(async (): Promise<void> => {
      try {
        if (!this.local) return void this.ensure()
        if (this.local.refreshChangedFolders()) this.rendered.clear()
        for (const p of this.pinned) {
          const st = p.path ? statSync(p.path, { throwIfNoEntry: false }) : undefined
          // unchanged: the same size and mtime, or still missing
          if (st ? st.size === p.size && st.mtimeMs === p.mtimeMs : p.size === undefined) continue
          Object.assign(p, this.loadPinned(p.url))
          this.rendered.clear()
        }
      } catch (e) {
        // the request goes out with what the cache holds
        this.options.logger?.warn('memory of %s could not be refreshed: %s', this.options.root, (e as Error)?.message ?? e)
      }
    })
  }

  /**
   * The memory section as the cache holds it ('' before the first build or with nothing to show),
   * as `scope` sees it: a private chat's files only in that chat (SPEC §22). Every chat without
   * files of its own shares one text.
   */
  section(scope?: ReadScope): string {
    if (!this.local || !this.config.enabled) return ''
    if (!this.pinned.length && !this.config.index) return ''
    const guard = this.options.guard
    const own = scope?.chat?.direct && guard?.files.has(scope.chat.channel) ? scope.chat.channel : ''
    // unscoped (the console's view) sees all; every shared view is the same
    const view = scope ? own : '\u0000all'
    let text = this.rendered.get(view)
    if (text !== undefined) return text
    const seen = (rel: string | undefined) => !scope || rel === undefined || !guard || guard.visible(rel, scope)
    const pinned = this.pinned.map(p => seen(p.rel) ? p : { url: p.url })
    text = memorySection({ pinned, index: this.config.index ? this.index(rel => seen(rel)) : undefined, folder: `local://${FOLDER}/` })
    this.rendered.set(view, text)
    return text
  }

  /** Bytes and files of all of local/. */
  stats(): Promise<MemoryStats> {
    return this.queue.run(async () => {
      const local = this.ensure()
      return { bytes: local.bytes, files: local.count }
    })
  }

  /** The trash, newest first. */
  trash(): Promise<TrashEntry[]> {
    return this.queue.run(() => this.keeper.trash.list())
  }

  /**
   * Puts a trash entry back (SPEC §22): at its path, or beside it when that is taken; private to
   * the chat it was private to. Throws a ResourceError (or an Error for an unknown id).
   */
  restore(id: string): Promise<{ url: string }> {
    return this.queue.run(async () => {
      const local = this.ensure()
      const trash = this.keeper.trash
      const entry = await trash.find(id)
      if (!entry) throw new Error(`no trash entry ${id}`)
      const done = await restoreInto(local.root, entry, trash.pathOf(entry))
      local.setFile(done.rel, statSync(done.path))
      local.touchFolders(done.rel)
      this.changed(done.path, done.rel)
      if (entry.privateTo) await this.options.guard?.files.mark([...done.folders, done.rel], entry.privateTo)
      await trash.drop(entry)
      return { url: formatFileUrl({ scheme: 'local', segments: done.rel.split('/'), selectors: [], raw: '' }) }
    })
  }

  /** Prunes the trash now and daily, each batch on the writes' queue, until stopped. */
  startTrash(): void {
    this.keeper.start(job => this.queue.run(job))
  }

  /** Resolves when every write queued so far has settled. */
  idle(): Promise<void> {
    return this.queue.idle()
  }

  private ensure(): LocalFiles {
    if (this.local) return this.local
    const local = new LocalFiles(realpathSync.native(this.options.root), FOLDER)
    local.scanAll()
    this.local = local
    // a file pinned twice (say local://a.md and LOCAL:///a.md) is shown once
    const seen = new Set<string>()
    this.pinned = this.config.pinned.map(url => ({ url, ...this.loadPinned(url) })).filter(p => p.rel === undefined || (!seen.has(p.rel) && !!seen.add(p.rel)))
    this.rendered.clear()
    return local
  }

  private changed(path: string, rel: string): void {
    this.options.texts.forget(path)
    this.rendered.clear()
    for (const p of this.pinned) if (p.rel === rel) Object.assign(p, this.loadPinned(p.url))
  }

  private index(seen: (rel: string) => boolean): IndexEntry[] {
    const local = this.local!
    const shown = new Set(this.pinned.filter(p => p.text !== undefined).map(p => p.rel))
    const out: IndexEntry[] = []
    if (this.urls.size > 2 * local.heads.size + 100) this.urls.clear()
    for (const [rel, firstLine] of local.heads) {
      if (shown.has(rel) || this.options.unlisted?.(rel) || !seen(rel)) continue
      let url = this.urls.get(rel)
      if (!url) this.urls.set(rel, url = formatFileUrl({ scheme: 'local', segments: rel.split('/'), selectors: [], raw: '' }))
      out.push({ url, bytes: local.files.get(rel)?.size ?? 0, firstLine })
    }
    return out.sort((a, b) => a.url < b.url ? -1 : a.url > b.url ? 1 : 0)
  }

  /** A pinned file as the section shows it; a URL that cannot be pinned says why. */
  private loadPinned(url: string): Omit<Pinned, 'url'> {
    const blank: Omit<Pinned, 'url'> = {
      rel: undefined, path: undefined, size: undefined, mtimeMs: undefined, text: undefined, bytes: undefined, problem: undefined,
    }
    try {
      const u = parseFileUrl(url)
      if (u.scheme !== 'local' || !u.segments.length) return { ...blank, problem: 'only a local:// file can be pinned' }
      const where = resolveWritable(this.local!.root, u.segments, url)
      const rel = this.local!.relOf(where.path)
      if (!where.exists) return { ...blank, rel, path: where.path }
      const st = statSync(where.path)
      const seen = { ...blank, rel, path: where.path, size: st.size, mtimeMs: st.mtimeMs, bytes: st.size }
      if (!st.isFile()) return { ...seen, problem: 'is not a file' }
      const head = readHead(where.path, Math.min(st.size, PINNED_READ_BYTES))
      if (looksBinary(head)) return { ...seen, problem: `is binary (${st.size} bytes); pin text files` }
      return { ...seen, text: decode(head, 0, head.length).text }
    } catch (e) {
      return { ...blank, problem: e instanceof ResourceError ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? e) }
    }
  }
}
