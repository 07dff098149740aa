// The tail of a conversation's history kept in memory (issue 15): only what the context window can
// use; the store keeps everything. Turn numbers and the latest target are read from it on load.
// It knows the platform ids of the facts it holds, so a message is never stored twice (SPEC §19:
// pulled after downtime and delivered live).
import type { Entry, Fact } from '../history/entries'
import { factLine } from '../history/render-facts'
import { FactAmendments } from '../history/amendments'

/** A fact's identity: its platform id within its channel (cross mode mixes channels, and some platforms number per chat). */
const idOf = (f: Fact) => `${f.channel}\u0000${f.id}`

export class EntryTail {
  entries: Entry[] = []
  /** older entries were dropped from memory (they are still stored) */
  forgotten = false
  /** the ids of the facts in `entries`, and of facts admitted on their way there (a turn's inbox) */
  private ids = new Set<string>()

  /** `maxMessages`: the context window's; every kept entry is at least one message or a bookkeeping entry */
  constructor(private maxMessages: () => number) {}

  /** How many entries are loaded and kept. */
  get keep(): number {
    return this.maxMessages() * 3 + 200
  }

  /** recalls and transcripts: facts read "[recalled]" (SPEC §19) or their voice's words (SPEC §20) */
  private amendments = new FactAmendments()

  loaded(entries: Entry[], more: boolean): void {
    this.entries = entries
    this.amendments.apply(entries)
    this.forgotten = more
    this.ids.clear()
    for (const e of entries) if (e.type === 'fact') this.ids.add(idOf(e.fact))
  }

  push(entries: Entry[]): void {
    if (FactAmendments.in(entries)) {
      this.entries.push(...entries)
      this.amendments.apply(this.entries)
    } else if (this.amendments.any) {
      // a fact recalled (or transcribed) before it left the inbox; the caller's array (written to disk) is not touched
      const own = entries.slice()
      this.amendments.apply(own)
      this.entries.push(...own)
    } else this.entries.push(...entries)
    for (const e of entries) if (e.type === 'fact') this.ids.add(idOf(e.fact))
    this.trim()
  }

  trim(): void {
    const keep = this.keep
    if (this.entries.length <= keep * 1.5) return
    for (const e of this.entries.splice(0, this.entries.length - keep)) if (e.type === 'fact') this.ids.delete(idOf(e.fact))
    this.forgotten = true
  }

  /** Whether the tail holds this platform message of `channel` (or admitted it on its way in). */
  holds(channel: string, id: string): boolean {
    return this.ids.has(`${channel}\u0000${id}`)
  }

  /** false when the fact is held already; else it counts as held from now on (before it reaches the entries). */
  admit(fact: Fact): boolean {
    const id = idOf(fact)
    if (this.ids.has(id)) return false
    this.ids.add(id)
    return true
  }

  /** The newest `n` lines of the chat (the judge reads them), their times in `zone` (budgets.timezone). */
  recentLines(n: number, zone: string): string[] {
    const out: string[] = []
    for (let i = this.entries.length - 1; i >= 0 && out.length < n; i--) {
      const e = this.entries[i]
      if (e.type === 'fact') out.push(factLine(e.fact, zone))
    }
    return out.reverse()
  }

  clear(): void {
    this.entries = []
    this.amendments.clear()
    this.forgotten = false
    this.ids.clear()
  }
}
