// What later entries say of earlier facts, applied to the facts as the model reads them: a recall
// masks one (SPEC §19), a transcript fills in a voice message (SPEC §20). The stored facts are never
// changed; a conversation's tail and the console apply the same amendments to what they show.
import type { Entry, TranscriptEntry } from './entries'
import { maskRecalled } from './recalled'
import { unheardVoices, withVoiceHeard } from './voice-line'
import { markUnsent } from './unsent'

const amends = (e: Entry) => e.type === 'recalled' || e.type === 'transcript' || e.type === 'unsent'

export class FactAmendments {
  /** ids of recalled messages */
  private recalled = new Set<string>()
  /** ids of the bot's own messages it took back (SPEC §23) */
  private unsent = new Set<string>()
  /** transcripts by the voice's URL */
  private heard = new Map<string, TranscriptEntry>()

  /** Whether `entries` hold an amendment (the whole tail is then looked at again). */
  static in(entries: readonly Entry[]): boolean {
    return entries.some(amends)
  }

  get any(): boolean {
    return this.recalled.size > 0 || this.heard.size > 0 || this.unsent.size > 0
  }

  /** Learns the amendments among `entries` and applies all it knows to their facts, in place. */
  apply(entries: Entry[]): void {
    for (const e of entries) if (e.type === 'transcript') this.heard.set(e.url, e)
    maskRecalled(entries, this.recalled)
    markUnsent(entries, this.unsent)
    if (!this.heard.size) return
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]
      if (e.type !== 'fact' || e.fact.recalled) continue
      let content = e.fact.content
      for (const url of unheardVoices(content)) {
        const t = this.heard.get(url)
        if (t) content = withVoiceHeard(content, url, t)
      }
      if (content !== e.fact.content) entries[i] = { ...e, fact: { ...e.fact, content } }
    }
  }

  clear(): void {
    this.recalled.clear()
    this.unsent.clear()
    this.heard.clear()
  }
}
