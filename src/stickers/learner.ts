// Learning the groups' own stickers (SPEC §19 "learn", docs/stickers.md "Learning and review"): in
// the groups `learn.groups` names, each image a person posts is hashed once its bytes are kept (the
// asset store fetches inbound media at arrival), and an image seen `seenTimes` times within
// `windowMinutes` is checked by attachment.visionModel and added to the library as waiting: nothing
// learned is offered or sent before the owner approves it on the console. All of it runs beside
// the conversation, never in its way: `appended` only queues, a few images are looked at at once,
// a full queue drops sightings, and the sightings are an LRU of bounded size.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Entry, Fact } from '../history/entries'
import type { CallPort } from '../model/calls'
import { channelForms } from '../claims/channel-key'
import { matchChannels } from '../claims/match'
import type { AssetSidecar } from '../resources/schemes/asset-sidecar'
import type { MediaBytes } from '../resources/types'
import type { Clock, Timer } from '../util/clock'
import { KeyedFile } from '../util/keyed-file'
import { BackgroundQueue, Dropped } from '../util/background-queue'
import { BoundedSet } from '../util/bounded-set'
import { dayOf } from '../util/day'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import type { StickerLearnConfig } from './config'
import { askImage, whyNoAnswer } from '../model/ask-image'
import { LEARN_QUESTION, learnVerdict } from './learn-check'
import { MAX_STICKER_BYTES, type StickerLibrary } from './library'
import { Sightings } from './sightings'
import { IMAGE_TYPES } from '../resources/image-types'

/** images looked at (sidecar read, hash) at once, and waiting at most: past it the newest sighting is not counted */
const AT_ONCE = 4
const MAX_WAITING = 256
/** the once-told log lines remembered */
const MAX_WARNED = 1000
/** checks the vision model failed, retried after 1, 4, 16 min; then the image waits unlabelled for the owner */
const MAX_TRIES = 4
const RETRY_MS = 60_000
/** hashes the vision model turned down, remembered at most (the oldest forgotten) */
const MAX_REJECTED = 5000
export const LEARN_FILE = 'sticker-learn.json'

export interface LearnAssets {
  /** the arrival fetches (waited for, then the sidecar read once) */
  readonly arrivals: { settled(id: string): Promise<void> }
  sidecar(id: string): Promise<AssetSidecar>
  bytes(id: string): Promise<MediaBytes>
}

export interface LearnerOptions {
  library: StickerLibrary
  config: StickerLearnConfig
  assets: LearnAssets
  /** attachment.visionModel; without it, learned stickers wait unlabelled */
  model?: string
  calls: CallPort
  clock: Clock
  logger: Logger
  /** the runtime home: where the turned-down hashes are kept */
  home: string
  /** budgets.timezone: the day perDay counts in ('' : the host's) */
  zone?: string
}

interface Seen {
  asset: string
  fact: string
  at: number
  channel: string
  user: string
}

interface Candidate extends Seen {
  hash: string
  tries: number
}

/** `learned-<first 8 of the hash>`: the same image gets the same name in every runtime (one file). */
export const learnedName = (hash: string) => `learned-${hash.slice(0, 8)}`

const ASSET = /\bsrc="asset:\/\/([^"]+)"/g

/** asset ids of the images in a fact's content */
export function factAssets(content: string): string[] {
  if (!content.includes('asset://')) return []
  return [...content.matchAll(ASSET)].map(m => m[1])
}

export class Learner {
  private sightings: Sightings
  private looks: BackgroundQueue
  private running = new Set<Promise<void>>()
  private learning = new SerialQueue()
  /** hashes being checked or added, or waiting for a retry */
  private handling = new Set<string>()
  private timers = new Set<Timer>()
  private rejected: KeyedFile<number>
  private abort = new AbortController()
  private warned = new BoundedSet<string>(MAX_WARNED)
  private stopped = false

  constructor(private o: LearnerOptions) {
    this.looks = new BackgroundQueue({
      concurrency: AT_ONCE, maxWaiting: MAX_WAITING, drop: 'newest',
      onFull: () => o.logger.debug('stickers: too many images to look at; some sightings are not counted'),
    })
    this.sightings = new Sightings({ times: o.config.seenTimes, windowMs: o.config.windowMinutes * 60_000 })
    this.rejected = new KeyedFile({
      path: join(o.home, LEARN_FILE), field: 'rejected', what: 'stickers not learned', logger: o.logger,
      value: v => typeof v === 'number' && Number.isFinite(v) ? v : undefined,
    })
  }

  /** Reads the turned-down hashes: once the runtime holds its home. */
  async start(): Promise<void> {
    const why = await this.rejected.load()
    if (why) this.o.logger.warn('stickers: %s %s', this.rejected.path, why)
  }

  /** A conversation appended entries: the images of people's group messages are queued, nothing more. */
  appended(entries: readonly Entry[]): void {
    if (this.stopped) return
    for (const e of entries) {
      if (e.type !== 'fact' || !this.learnsFrom(e.fact)) continue
      for (const asset of factAssets(e.fact.content)) {
        this.look({ asset, fact: e.fact.id, at: e.fact.at, channel: e.fact.channel, user: e.fact.user.id })
      }
    }
  }

  private learnsFrom(f: Fact): boolean {
    return !f.direct && !f.pulled && !f.recalled && !f.notice && matchChannels(this.o.config.groups, channelForms(f.channel))
  }

  private look(seen: Seen): void {
    const p = this.looks.run(() => this.count(seen)).catch(e => {
      if (!(e instanceof Dropped)) this.o.logger.debug('stickers: an image of %s was not counted: %s', seen.channel, e?.message ?? e)
    })
    this.running.add(p)
    void p.finally(() => this.running.delete(p))
  }

  private async count(seen: Seen): Promise<void> {
    await this.o.assets.arrivals.settled(seen.asset)
    // the sidecar has the hash once the bytes are kept (the store hashed them as it wrote them)
    const hash = (await this.o.assets.sidecar(seen.asset)).sha256
    if (!hash || this.handling.has(hash) || this.rejected.map.has(hash) || this.o.library.byHash(hash)) return
    if (!this.sightings.see(hash, seen.fact, seen.at)) return
    this.sightings.forget(hash)
    this.handling.add(hash)
    this.queue({ ...seen, hash, tries: 0 })
  }

  private queue(c: Candidate): void {
    const p = this.learning.run(() => this.learn(c)).catch(e => {
      this.handling.delete(c.hash)
      this.o.logger.warn('stickers: an image of %s could not be learned: %s', c.channel, e?.message ?? e)
    })
    this.running.add(p)
    void p.finally(() => this.running.delete(p))
  }

  private async learn(c: Candidate): Promise<void> {
    if (this.stopped) return
    const { library } = this.o
    // another runtime of the profile may have learned it meanwhile
    await library.scan()
    if (library.byHash(c.hash)) return void this.handling.delete(c.hash)
    if (this.learnedToday(c.channel) >= this.o.config.perDay) {
      this.handling.delete(c.hash)
      return this.once(`day:${c.channel}:${this.day(this.o.clock.now())}`, 'info',
        'stickers: %d stickers were learned in %s today (learn.perDay); no more until tomorrow', this.o.config.perDay, c.channel)
    }
    const sidecar = await this.o.assets.sidecar(c.asset)
    if ((sidecar.byteLength ?? 0) > MAX_STICKER_BYTES) return this.reject(c, `${sidecar.byteLength} bytes, too big for a sticker`)
    const media = await this.o.assets.bytes(c.asset)
    if (!IMAGE_TYPES.has(media.mediaType) || media.data.length > MAX_STICKER_BYTES) return this.reject(c, `not an image a sticker may be (${media.mediaType})`)
    const model = this.o.model && this.o.calls.handle(this.o.model) ? this.o.model : undefined
    if (!model) {
      this.once('model', 'warn', 'stickers: no usable attachment.visionModel%s: learned stickers wait for review unchecked and unlabelled',
        this.o.model ? ` ("${this.o.model}" is not a configured model)` : '')
      return this.add(c, media)
    }
    let why: string
    try {
      const answer = await askImage({
        calls: this.o.calls, model, image: media.data, mediaType: media.mediaType, question: LEARN_QUESTION, key: 'stickers', signal: this.abort.signal,
      })
      const verdict = learnVerdict(answer.text)
      if (this.stopped) return
      if (verdict.kind === 'rejected') return this.reject(c, verdict.why)
      if (verdict.kind === 'fit') return this.add(c, media, verdict.label)
      why = verdict.why
    } catch (e) {
      if (this.stopped) return
      why = whyNoAnswer(e)
    }
    c.tries++
    if (c.tries >= MAX_TRIES) {
      this.o.logger.warn('stickers: the vision model could not check an image of %s %d times (%s); it waits for review unchecked', c.channel, c.tries, why)
      return this.add(c, media)
    }
    const wait = RETRY_MS * 4 ** (c.tries - 1)
    this.o.logger[c.tries === 1 ? 'warn' : 'debug']('stickers: the vision model could not check an image of %s (%s); tried again in %d min',
      c.channel, why, Math.round(wait / 60_000))
    const timer = this.o.clock.setTimeout(() => {
      this.timers.delete(timer)
      if (!this.stopped) this.queue(c)
    }, wait).unref()
    this.timers.add(timer)
  }

  private async add(c: Candidate, media: MediaBytes, label?: { description?: string; tags?: string[] }): Promise<void> {
    const name = learnedName(c.hash)
    await mkdir(this.o.library.dir, { recursive: true })
    // the label first: the labeller, woken by the new image, finds it labelled
    if (label) await this.o.library.setLabel(name, label)
    const source = { kind: 'learned' as const, channel: c.channel, user: c.user, at: this.o.clock.now() }
    const s = await this.o.library.add(name, media.data, { state: 'waiting', source })
    this.handling.delete(c.hash)
    this.o.logger.info('stickers: learned %s from %s (seen %d times); it waits for the owner\'s approval on the console',
      s.name, c.channel, this.o.config.seenTimes)
  }

  private reject(c: Candidate, why: string): void {
    this.handling.delete(c.hash)
    this.rejected.map.set(c.hash, this.o.clock.now())
    while (this.rejected.map.size > MAX_REJECTED) this.rejected.map.delete(this.rejected.map.keys().next().value!)
    this.rejected.changed()
    this.o.logger.debug('stickers: an image of %s is not learned: %s', c.channel, why)
  }

  /** Stickers learned in `channel` on the day of now (budgets.timezone), from the library's state file (shared by the profile's runtimes). */
  private learnedToday(channel: string): number {
    const today = this.day(this.o.clock.now())
    return this.o.library.list().filter(s => s.source?.kind === 'learned' && s.source.channel === channel && s.source.at !== undefined
      && this.day(s.source.at) === today).length
  }

  private day(ms: number): string {
    return dayOf(ms, this.o.zone ?? '')
  }

  private once(key: string, level: 'debug' | 'info' | 'warn', format: string, ...args: unknown[]): void {
    if (this.warned.has(key)) return
    this.warned.add(key)
    this.o.logger[level](format, ...args)
  }

  /** Resolves when the images handed so far are counted and learned (retries waiting on a timer aside). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running])
    await this.rejected.idle()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.abort.abort()
    this.looks.stop()
    for (const t of this.timers) t.cancel()
    this.timers.clear()
    await Promise.all([...this.running]).catch(() => {})
    await this.rejected.stop()
  }
}
