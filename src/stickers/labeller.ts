// Labels for stickers that have none (SPEC §19): attachment.visionModel is shown the image and asked
// for one sentence and a few tags as JSON (label.ts); a good answer becomes `<name>.json` beside the
// image, written atomically. In the background, one sticker at a time, a few per run (a run starts
// after a scan that changed the library, or before a turn when a retry is due), each call counted
// like read's vision questions (ModelCalls, kind 'vision'). A failure or a nonsense answer is logged
// once per sticker and retried later, each time after a longer pause.
import { askImage, whyNoAnswer } from '../model/ask-image'
import type { CallPort } from '../model/calls'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { LABEL_QUESTION, labelFromAnswer } from './label'
import type { StickerLibrary } from './library'
import type { Sticker } from './types'

/** stickers labelled per run at most */
export const LABELS_PER_RUN = 8
/** the first retry after a minute, then four times as long each time, at most a day */
const RETRY_MS = 60_000
const MAX_RETRY_MS = 24 * 3600_000

interface Tries {
  failures: number
  next: number
}

export interface LabellerOptions {
  library: StickerLibrary
  /** attachment.visionModel */
  model: string
  calls: CallPort
  clock: Clock
  logger: Logger
  perRun?: number
}

export class Labeller {
  private running?: Promise<void>
  private tries = new Map<string, Tries>()
  private abort = new AbortController()
  private stopped = false
  private warnedModel = false

  constructor(private o: LabellerOptions) {}

  /** Starts a run when none is running and a sticker is due. */
  kick(): void {
    if (this.stopped || this.running || !this.due().length) return
    this.running = this.run().finally(() => { this.running = undefined })
  }

  private due(): Sticker[] {
    const now = this.o.clock.now()
    return this.o.library.unlabelled().filter(s => (this.tries.get(s.sha256)?.next ?? 0) <= now)
  }

  private async run(): Promise<void> {
    if (!this.o.calls.handle(this.o.model)) {
      if (!this.warnedModel) this.o.logger.warn('stickers: attachment.visionModel "%s" is not a configured model; stickers stay unlabelled', this.o.model)
      this.warnedModel = true
      return
    }
    for (const s of this.due().slice(0, this.o.perRun ?? LABELS_PER_RUN)) {
      if (this.stopped) return
      await this.label(s)
    }
  }

  private async label(s: Sticker): Promise<void> {
    let why: string
    try {
      const answer = await this.ask(s)
      if (this.stopped) return
      const got = labelFromAnswer(answer)
      if ('label' in got) {
        // another runtime of the profile may have labelled it meanwhile: its file stays
        await this.o.library.scan()
        if (!this.o.library.unlabelled().some(u => u.sha256 === s.sha256)) return
        await this.o.library.setLabel(s.name, got.label)
        if (this.tries.has(s.sha256)) this.o.logger.info('stickers: %s is labelled now', s.path)
        this.tries.delete(s.sha256)
        return
      }
      why = `${got.problem}: ${JSON.stringify(answer.slice(0, 120))}`
    } catch (e) {
      if (this.stopped) return
      why = whyNoAnswer(e)
    }
    const t = this.tries.get(s.sha256) ?? { failures: 0, next: 0 }
    t.failures++
    const wait = Math.min(RETRY_MS * 4 ** (t.failures - 1), MAX_RETRY_MS)
    t.next = this.o.clock.now() + wait
    this.tries.set(s.sha256, t)
    const log = t.failures === 1 ? 'warn' : 'debug'
    const minutes = Math.round(wait / 60_000)
    this.o.logger[log]('stickers: the vision model could not label %s (%s); it works by its name, and is tried again in %d min', s.path, why, minutes)
  }

  private async ask(s: Sticker): Promise<string> {
    const image = await this.o.library.bytes(s)
    const { calls, model } = this.o
    const answer = await askImage({ calls, model, image, mediaType: s.mediaType, question: LABEL_QUESTION, key: 'stickers', signal: this.abort.signal })
    return answer.text
  }

  /** Resolves when the run under way is done (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.abort.abort()
    await this.running?.catch(() => {})
  }
}
