// Hearing (SPEC §20): a voice message is transcribed in the background from the moment it arrives,
// never holding up its storing; the transcript joins the history as an entry the conversation
// applies to the voice's fact. A turn woken meanwhile waits for it a bounded time (`settled`), then
// goes on with `[voice: …]`, and the words join the next request. Nothing here throws: a failure
// is the fact's `not transcribed: <why>`.
import type { Entry, TranscriptEntry } from '../history/entries'
import type { CallPort } from '../model/calls'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Clock } from '../util/clock'
import { BackgroundQueue, Dropped } from '../util/background-queue'
import { BoundedSet } from '../util/bounded-set'
import type { Logger } from '../util/logger'
import { within } from '../util/within'
import { heardAudio } from './heard-audio'
import type { VoiceConfig } from './config'
import { VoiceError } from './voice-error'
import { transcribe } from './speech-calls'

/** voices decoded and uploaded at once per runtime (20 arriving together wait their turn) */
const AT_ONCE = 2
/** voices waiting their turn at most; past it the oldest waiting is not transcribed (its fact says so) */
const MAX_WAITING = 200
/** how long a turn waits for the transcripts of voices under way before it goes on without them */
export const TRANSCRIPT_WAIT_MS = 8000
/** voices remembered as heard: one pulled after downtime and delivered live is transcribed once */
const REMEMBERED = 2000

/** The message a voice came with: where its transcript goes and whom recall names. */
export interface HeardMessage {
  conversation: string
  id: string
  channel: string
  user: { id: string; name: string }
}

export interface HearingDeps {
  config: VoiceConfig
  assets: AssetStore
  calls: CallPort
  clock: Clock
  logger: Logger
  /** appends to a conversation's history (loading it if need be) */
  append(conversation: string, entries: Entry[]): Promise<void>
}

export class Hearing {
  /** how long a turn waits for the transcripts of voices under way (a field, so tests can shorten it) */
  waitMs = TRANSCRIPT_WAIT_MS
  private pending = new Map<string, Set<Promise<void>>>()
  private queue: BackgroundQueue
  private heard = new BoundedSet<string>(REMEMBERED)

  constructor(private d: HearingDeps) {
    this.queue = new BackgroundQueue({
      concurrency: AT_ONCE, maxWaiting: MAX_WAITING,
      onFull: max => d.logger.warn('more than %d voice messages wait to be transcribed; the oldest waiting are stored untranscribed', max),
    })
  }

  /** Starts transcribing the voice `url` of `message`; `seconds`: its length as the platform said, if it did. */
  hear(url: string, message: HeardMessage, seconds?: number): void {
    if (this.queue.stopped || !url.startsWith('asset://') || this.heard.has(url)) return
    this.heard.add(url)
    const key = message.conversation
    const set = this.pending.get(key) ?? new Set()
    this.pending.set(key, set)
    const job: Promise<void> = this.transcript(url, message, seconds)
      .then(t => this.queue.stopped ? undefined : this.d.append(key, [t]))
      .catch(e => this.d.logger.warn('a voice message of %s was not stored with its transcript: %s', message.channel, e?.message ?? e))
      .finally(() => {
        set.delete(job)
        if (!set.size && this.pending.get(key) === set) this.pending.delete(key)
      })
    set.add(job)
  }

  /** Whether voices of `conversation` are being transcribed. */
  busy(conversation: string): boolean {
    return !!this.pending.get(conversation)?.size
  }

  /** Resolves when the conversation's voices under way are transcribed, or after `ms`. */
  async settled(conversation: string, ms: number): Promise<void> {
    const set = this.pending.get(conversation)
    if (set?.size) await within(Promise.all(set), ms)
  }

  /** Resolves when every voice under way is transcribed (tests, the bench). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending.values()].flatMap(s => [...s]))
  }

  /** Drops the voices waiting and aborts the transcriptions under way; none is appended after. */
  stop(): void {
    this.queue.stop()
  }

  private async transcript(url: string, message: HeardMessage, hinted?: number): Promise<TranscriptEntry> {
    const entry = (heard: { seconds?: number; text?: string; why?: string }): TranscriptEntry => ({
      type: 'transcript', at: this.d.clock.now(), url, message: { id: message.id, channel: message.channel, user: message.user },
      ...(heard.seconds !== undefined ? { seconds: heard.seconds } : {}), ...(heard.text !== undefined ? { text: heard.text } : { why: heard.why }),
    })
    let seconds = hinted
    try {
      return await this.queue.run(async signal => {
        const bytes = await this.bytes(url, signal)
        const audio = await heardAudio(bytes.data, bytes.mediaType, { maxSeconds: this.d.config.maxSeconds })
        seconds = audio.seconds
        const heard = await transcribe(this.d.calls, this.d.config.stt, audio.audio, audio.mediaType, signal)
        seconds ??= heard.seconds
        const text = heard.text.trim()
        return entry(text ? { seconds, text } : { seconds, why: 'no words were heard' })
      })
    } catch (e: any) {
      const why = e instanceof VoiceError ? e.message : e instanceof Dropped ? 'too many voices waited to be transcribed'
        : `it could not be read (${e?.message ?? e})`
      if (e instanceof VoiceError && e.seconds !== undefined) seconds = e.seconds
      if (!(e instanceof VoiceError) || e.code === 'speech_failed') this.d.logger.info('a voice message in %s was not transcribed: %s', message.channel, why)
      return entry({ seconds, why })
    }
  }

  /** The voice's bytes once its arrival fetch is done; why not in words. */
  private async bytes(url: string, signal: AbortSignal): Promise<{ data: Buffer; mediaType?: string }> {
    const id = url.slice('asset://'.length)
    if (!(await this.d.assets.fetched(id))) {
      const failure = (await this.d.assets.sidecar(id).catch((): undefined => undefined))?.fetchFailure
      throw new VoiceError('not_fetched', `the audio could not be fetched${failure ? ` (${failure.reason})` : ''}`)
    }
    return this.d.assets.bytes(id, signal)
  }
}
