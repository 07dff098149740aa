// The one walk of local/ and its memory folder (SPEC §13): regular files with their sizes and times,
// in name order, for memory's account of local/ (LocalFiles), recall's note search (SPEC §17) and the
// console's list (SPEC §12). Written once, as a generator of file-system steps, and run two ways (as
// gensync does): asynchronously (walkNotes), so a search never holds up other conversations, or
// synchronously (walkSync), for memory's cache, which a turn waits for: through the thread pool the
// same walk took 3 times as long and a turn's check 6 times (bench 10).
// Symbolic links are neither listed nor followed: their targets are not files of this folder (or
// are counted where they live), and a walk that follows links could loop or leave it.
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

export interface NoteFile {
  /** '/'-separated, relative to the walked folder */
  rel: string
  size: number
  mtimeMs: number
}

export interface WalkOptions {
  /** stop after this many files; WALK_LIMIT unless given */
  limit?: number
  /** where to start, '/'-separated under the walked folder (entries stay relative to that folder) */
  from?: string
  /** report each folder listed, with its mtime taken just before the listing */
  folders?: boolean
  /** whether to list a subfolder met on the way (`from` is always listed); all by default */
  enter?: (rel: string) => boolean
}

export interface Walked {
  files: NoteFile[]
  /** with `folders`: the folders listed, `from` first; none when `from` is not a folder */
  folders: { rel: string, mtimeMs: number }[]
  /** subfolders that `enter` declined */
  passed: string[]
}

/** memory's quota allows 1000 files in all of local/ by default: a walk past ten times that is not of notes */
export const WALK_LIMIT = 10_000

/** The files under `dir` in name order (UTF-16 code units, each folder before the next name); none when it does not exist. */
export async function walkNotes(dir: string, opts: { limit?: number } = {}): Promise<NoteFile[]> {
  return (await runAsync(walkSteps(dir, opts))).files
}

/** The same walk with synchronous calls. */
export function walkSync(dir: string, opts: WalkOptions = {}): Walked {
  return runSync(walkSteps(dir, opts))
}

/** Calls to the file system: a listing, or the stats of some paths (all at once when asynchronous); a failure answers undefined. */
type Step = { op: 'readdir', path: string } | { op: 'stat', paths: string[] }
type Answer = Dirent[] | (Stats | undefined)[]

function* walkSteps(dir: string, opts: WalkOptions): Generator<Step, Walked, Answer> {
  const limit = opts.limit ?? WALK_LIMIT
  const out: Walked = { files: [], folders: [], passed: [] }
  function* visit(rel: string): Generator<Step, void, Answer> {
    const path = rel ? join(dir, ...rel.split('/')) : dir
    let folder: Stats | undefined
    if (opts.folders) {
      folder = ((yield { op: 'stat', paths: [path] }) as Stats[])[0]
      if (!folder?.isDirectory()) return
    }
    const entries = (yield { op: 'readdir', path }) as Dirent[] | undefined
    if (!entries) return
    if (folder) out.folders.push({ rel, mtimeMs: folder.mtimeMs })
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    // the files between two subfolders are stat'ed together
    for (let i = 0; i < entries.length && out.files.length < limit;) {
      const e = entries[i]
      const child = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) {
        if (!opts.enter || opts.enter(child)) yield* visit(child)
        else out.passed.push(child)
        i++
        continue
      }
      const run: string[] = []
      for (; i < entries.length && !entries[i].isDirectory() && run.length < limit - out.files.length; i++) {
        if (entries[i].isFile()) run.push(entries[i].name)
      }
      const stats = (yield { op: 'stat', paths: run.map(name => join(path, name)) }) as (Stats | undefined)[]
      run.forEach((name, k) => {
        const st = stats[k]
        if (st?.isFile()) out.files.push({ rel: rel ? `${rel}/${name}` : name, size: st.size, mtimeMs: st.mtimeMs })
      })
    }
  }
  yield* visit(opts.from ?? '')
  return out
}

function runSync(steps: Generator<Step, Walked, Answer>): Walked {
  for (let r = steps.next(); ;) {
    if (r.done) return r.value
    const step = r.value as Step
    r = steps.next(step.op === 'stat' ? step.paths.map(statOrGone) : readdirOrGone(step.path))
  }
}

function statOrGone(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

function readdirOrGone(path: string): Dirent[] | undefined {
  try {
    return readdirSync(path, { withFileTypes: true })
  } catch {
    return undefined
  }
}

async function runAsync(steps: Generator<Step, Walked, Answer>): Promise<Walked> {
  const gone = (): undefined => undefined
  for (let r = steps.next(); ;) {
    if (r.done) return r.value
    const step = r.value as Step
    r = steps.next(step.op === 'stat'
      ? await Promise.all(step.paths.map(path => stat(path).catch(gone)))
      : await readdir(step.path, { withFileTypes: true }).catch(gone))
  }
}
