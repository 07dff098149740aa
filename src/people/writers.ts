// Who has written in each conversation (SPEC §22: a person's note is shown, found and read only
// where that person has written): a file per conversation under the runtime home's people-seen/,
// one line per person (their note's path under local/), appended when someone writes there for the
// first time. A conversation's file is read once, when it is first asked about; a turn's look is a
// Set lookup, and a message costs one only (nothing is read again per request).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { safeName } from '../util/safe-name'
import type { Logger } from '../util/logger'

export const WRITERS_DIR = 'people-seen'
/** conversations whose writers are kept in memory */
const LOADED = 500
/** people recorded per conversation; past it, newcomers' notes stay out of that conversation */
export const MAX_WRITERS = 50_000

export class Writers {
  private loaded = new LRUCache<string, Set<string>>({ max: LOADED })
  private made = false

  /** `home`: the runtime home. */
  constructor(private home: string, private logger?: Logger) {}

  /** `note`: the person's note path under local/ (people-path.ts personRel). */
  saw(conversation: string, note: string): void {
    const set = this.of(conversation)
    if (set.has(note) || set.size >= MAX_WRITERS) return
    set.add(note)
    try {
      if (!this.made) mkdirSync(join(this.home, WRITERS_DIR), { recursive: true })
      this.made = true
      appendFileSync(this.file(conversation), JSON.stringify(note) + '\n')
    } catch (e: any) {
      // kept in memory: the note is shown there until the next start
      this.logger?.warn('people seen in %s could not be recorded: %s', conversation, e?.message ?? e)
    }
  }

  has(conversation: string, note: string): boolean {
    return this.of(conversation).has(note)
  }

  private of(conversation: string): Set<string> {
    let set = this.loaded.get(conversation)
    if (set) return set
    set = new Set()
    let text = ''
    try {
      text = readFileSync(this.file(conversation), 'utf8')
    } catch {}
    for (const line of text.split('\n')) {
      if (set.size >= MAX_WRITERS) break
      try {
        const note = JSON.parse(line)
        if (typeof note === 'string') set.add(note)
      } catch {}
    }
    this.loaded.set(conversation, set)
    return set
  }

  private file(conversation: string): string {
    return join(this.home, WRITERS_DIR, `${safeName(conversation)}.jsonl`)
  }
}
