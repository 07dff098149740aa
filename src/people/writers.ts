// Who has written in each conversation (SPEC §22: a person's note is shown, found and read only
// where that person has written): a file per conversation under the runtime home's people-seen/,
// one line per person (their note's path under local/), appended when someone writes there for the
// first time. A conversation's file is read once, when it is first asked about (the folder is
// listed once, so a new conversation reads nothing); a turn's look is a Set lookup, and a message
// costs one only. The line is appended in the background, in order: a burst of new chats does not
// wait on the disk (bench 11).
import { readdirSync, readFileSync } from 'node:fs'
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { safeName } from '../util/safe-name'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'

export const WRITERS_DIR = 'people-seen'
/** conversations whose writers are kept in memory */
const LOADED = 500
/** people recorded per conversation; past it, newcomers' notes stay out of that conversation */
export const MAX_WRITERS = 50_000

export class Writers {
  private loaded = new LRUCache<string, Set<string>>({ max: LOADED })
  /** the files of people-seen/, listed at the first look */
  private files?: Set<string>
  private made = false
  private writes = new SerialQueue()

  /** `home`: the runtime home. */
  constructor(private home: string, private logger?: Logger) {}

  /** `note`: the person's note path under local/ (people-path.ts personRel). */
  saw(conversation: string, note: string): void {
    const set = this.of(conversation)
    if (set.has(note) || set.size >= MAX_WRITERS) return
    set.add(note)
    const name = this.name(conversation)
    this.listed().add(name)
    void this.writes.run(async () => {
      if (!this.made) await mkdir(join(this.home, WRITERS_DIR), { recursive: true })
      this.made = true
      await appendFile(join(this.home, WRITERS_DIR, name), JSON.stringify(note) + '\n')
    }).catch((e: any) => {
      // kept in memory: the note is shown there until the next start
      this.logger?.warn('people seen in %s could not be recorded: %s', conversation, e?.message ?? e)
    })
  }

  /** Resolves when every line recorded so far is on disk (or failed and was logged). */
  idle(): Promise<void> {
    return this.writes.idle()
  }

  has(conversation: string, note: string): boolean {
    return this.of(conversation).has(note)
  }

  private of(conversation: string): Set<string> {
    let set = this.loaded.get(conversation)
    if (set) return set
    set = new Set()
    let text = ''
    const name = this.name(conversation)
    try {
      if (this.listed().has(name)) text = readFileSync(join(this.home, WRITERS_DIR, name), 'utf8')
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

  private listed(): Set<string> {
    if (!this.files) {
      try {
        this.files = new Set(readdirSync(join(this.home, WRITERS_DIR)))
        this.made = true
      } catch {
        this.files = new Set()
      }
    }
    return this.files
  }

  private name(conversation: string): string {
    return `${safeName(conversation)}.jsonl`
  }
}
