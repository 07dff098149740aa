// What memory's writer keeps of the owner's files (SPEC §22 "Nothing the owner keeps is lost by a
// member's word"): the trash a removed or overwritten file goes to first, the folders write may not
// change (the sticker library registers its own), and the trash's daily pruning.
import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { ResourceError } from '../resources/errors'
import type { ReadScope } from '../resources/types'
import type { Clock, Timer } from '../util/clock'
import type { Logger } from '../util/logger'
import { TRASH_DIR, Trash, type TrashLimits } from './trash/trash'
import type { KeptFile, WriteContext } from './write-local'

const DAY_MS = 86_400_000
/** the next batch of a prune with more due */
const NEXT_BATCH_MS = 1000

interface Locked {
  dir: string
  what: string
}

export class TrashKeeper {
  readonly trash: Trash
  private locked: Locked[] = []
  private timer?: Timer
  private stopped = false

  /** `root`: the runtime home's local/ (the trash is beside it) */
  constructor(private root: string, limits: () => TrashLimits, private clock: Clock, private logger?: Logger) {
    this.trash = new Trash(join(dirname(root), TRASH_DIR), limits, clock, logger)
  }

  /** Makes a folder (and all in it) read-only to write; `what` names it in the refusal ("the sticker library"). */
  readOnly(dir: string, what: string): void {
    this.locked.push({ dir, what })
  }

  /** The check of write-local's context: throws forbidden for a path inside a read-only folder. */
  check(realRoot: string): WriteContext['readOnly'] {
    if (!this.locked.length) return undefined
    return (rel, url) => {
      for (const l of this.locked) {
        const inside = this.relsOf(l.dir, realRoot).find(p => rel === p || rel.startsWith(`${p}/`))
        if (inside !== undefined) {
          throw new ResourceError('forbidden', `${url} is in ${l.what} (local://${inside}/), which write cannot change: the owner keeps it`)
        }
      }
    }
  }

  /** The keeping of write-local's context, for a write from `scope`; `privateTo`: the private chat a file belongs to. */
  keeper(scope: ReadScope | undefined, privateTo: (rel: string) => string | undefined): WriteContext['keep'] {
    return async (t: KeptFile, why, data) => {
      if (!this.trash.fits(t.size)) {
        throw new ResourceError('too_large', `${t.url} is ${t.size} bytes, more than the trash keeps (memory.trashBytes): write cannot remove or replace it`)
      }
      const note = { rel: t.rel, why, ...scope?.conversation ? { conversation: scope.conversation } : {} }
      const chat = privateTo(t.rel)
      try {
        const entry = await this.trash.keep(data ? { data } : { path: t.path }, t.size, chat ? { ...note, privateTo: chat } : note)
        return () => this.trash.drop(entry).catch(() => {})
      } catch (e: any) {
        this.logger?.warn('trash could not keep %s: %s', t.url, e?.message ?? e)
        throw new ResourceError('write_failed', `${t.url}: not changed: its old version could not be kept in the trash (${e?.code ?? e?.message ?? e})`)
      }
    }
  }

  /** Prunes now, then daily; `run` serialises each batch with the writes. */
  start(run: (job: () => Promise<boolean>) => Promise<boolean>): void {
    const pass = (): void => {
      this.timer = undefined
      if (this.stopped) return
      void run(() => this.trash.prune()).then(
        more => this.arm(pass, more ? NEXT_BATCH_MS : DAY_MS),
        e => {
          this.logger?.warn('trash %s could not be pruned: %s', this.trash.dir, e?.message ?? e)
          this.arm(pass, DAY_MS)
        },
      )
    }
    pass()
  }

  stop(): void {
    this.stopped = true
    this.timer?.cancel()
    this.timer = undefined
  }

  private arm(pass: () => void, ms: number): void {
    if (!this.stopped) this.timer = this.clock.setTimeout(pass, ms).unref()
  }

  /** A folder's paths under local/: as configured and as resolved (through links); only those inside. */
  private relsOf(dir: string, realRoot: string): string[] {
    const out: string[] = []
    const add = (base: string, path: string) => {
      const rel = relative(base, path)
      if (rel && !rel.startsWith('..') && !isAbsolute(rel)) out.push(rel.split(sep).join('/'))
    }
    add(resolve(this.root), resolve(dir))
    try {
      add(realRoot, realpathSync.native(dir))
    } catch {
      // not there yet: its configured path holds
    }
    return out
  }
}
