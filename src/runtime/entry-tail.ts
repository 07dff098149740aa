// The tail of a conversation's history kept in memory (issue 15): only what the context window can
// use; the store keeps everything. Turn numbers and the latest target are read from it on load.
import type { Entry } from '../history/entries'
import { factLine } from '../history/render-facts'
import { maskRecalled } from '../history/recalled'

export class EntryTail {
  entries: Entry[] = []
  /** older entries were dropped from memory (they are still stored) */
  forgotten = false

  /** `maxMessages`: the context window's; every kept entry is at least one message or a bookkeeping entry */
  constructor(private maxMessages: () => number) {}

  /** How many entries are loaded and kept. */
  get keep(): number {
    return this.maxMessages() * 3 + 200
  }

  /** ids of recalled messages: their facts read "[recalled]" (SPEC §19) */
  private recalled = new Set<string>()

  loaded(entries: Entry[], more: boolean): void {
    this.entries = entries
    maskRecalled(entries, this.recalled)
    this.forgotten = more
  }

  push(entries: Entry[]): void {
    if (entries.some(e => e.type === 'recalled')) {
      this.entries.push(...entries)
      maskRecalled(this.entries, this.recalled)
    } else if (this.recalled.size) {
      // a fact recalled before it left the inbox; the caller's array (written to disk) is not touched
      const own = entries.slice()
      maskRecalled(own, this.recalled)
      this.entries.push(...own)
    } else this.entries.push(...entries)
    this.trim()
  }

  trim(): void {
    const keep = this.keep
    if (this.entries.length <= keep * 1.5) return
    this.entries.splice(0, this.entries.length - keep)
    this.forgotten = true
  }

  /** The newest `n` lines of the chat (the judge reads them). */
  recentLines(n: number): string[] {
    const out: string[] = []
    for (let i = this.entries.length - 1; i >= 0 && out.length < n; i--) {
      const e = this.entries[i]
      if (e.type === 'fact') out.push(factLine(e.fact))
    }
    return out.reverse()
  }

  clear(): void {
    this.entries = []
    this.recalled.clear()
    this.forgotten = false
  }
}
