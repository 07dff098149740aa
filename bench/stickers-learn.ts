// 19. Learning stickers (SPEC §19 "learn"): the cost per inbound image of the ingest path — the
// image registered in the asset store, fetched at arrival (from memory: no network, so the ratio
// is as harsh as it gets), its fact handed to the stickers part — with learning on (the sidecar's
// hash read, counted in the sightings LRU, a few images seen three times and checked by a stand-in
// vision model) against the same with learning off, rounds interleaved in one process. And the
// sightings' memory bound: 20,000 distinct images leave at most 10,000 hashes remembered.
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Entry } from '../src/history/entries'
import type { CallPort } from '../src/model/calls'
import { AssetStore } from '../src/resources/schemes/asset-store'
import { Learner } from '../src/stickers/learner'
import { StickerLibrary } from '../src/stickers/library'
import { MAX_SIGHTINGS, Sightings } from '../src/stickers/sightings'
import { systemClock } from '../src/util/clock'
import type { Logger } from '../src/util/logger'
import { median, now, type Mode, type Row } from './measure'

const KB = 20
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
/** the vision model turns every image down at once (the check's own cost is the model's, not kotodama's) */
const calls = { handle: () => ({}), run: async () => ({ result: { text: '{"isSticker": false, "fit": false}' } }) } as unknown as CallPort

/** A PNG-headed image of ~KB bytes, distinct per seed. */
function image(seed: number): Buffer {
  const b = randomBytes(KB * 1024)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b)
  b.writeUInt32BE(seed, 8)
  return b
}

async function round(dir: string, n: number, learn: boolean, images: Buffer[]): Promise<number> {
  await mkdir(dir, { recursive: true })
  const bytes = new Map<string, Buffer>()
  const store = new AssetStore(join(dir, 'assets'), async url => ({ data: bytes.get(url)!, mediaType: 'image/png' }))
  const library = new StickerLibrary({ dir: join(dir, 'stickers'), logger: quiet, clock: systemClock })
  await library.scan()
  const config = { enabled: true, groups: ['group:*'], seenTimes: 3, windowMinutes: 30, perDay: 20 }
  const learner = learn ? new Learner({ library, config, assets: store, model: 'eye', calls, clock: systemClock, logger: quiet, home: dir }) : undefined
  const t = now()
  for (let i = 0; i < n; i++) {
    // one image in ten is one of a few the group keeps sending
    const data = i % 10 === 0 ? images[(i / 10) % 5] : images[5 + i]
    const url = `https://media.example/${i}.png`
    bytes.set(url, data)
    const id = await store.register(url, { mediaType: 'image/png' }, { fetchNow: true })
    const fact: Entry = {
      type: 'fact', at: Date.now(),
      fact: { id: `m${i}`, at: Date.now(), bot: 'b', channel: 'group:g', direct: false, user: { id: 'u', name: 'u' }, content: `<img src="asset://${id}"/>` },
    }
    learner?.appended([fact])
  }
  await store.idle()
  await learner?.idle()
  const ms = now() - t
  await learner?.stop()
  await library.stop()
  store.stop()
  return ms / n
}

export async function stickersLearn(mode: Mode): Promise<Row[]> {
  const n = mode.full ? 2000 : 500
  const reps = mode.full ? 9 : 7
  const images = Array.from({ length: n + 5 }, (_, i) => image(i))
  const on: number[] = []
  const off: number[] = []
  // a warm-up of each, then interleaved
  await round(join(mode.tmp, 'learn-warm-on'), 50, true, images)
  await round(join(mode.tmp, 'learn-warm-off'), 50, false, images)
  for (let r = 0; r < reps; r++) {
    off.push(await round(join(mode.tmp, `learn-off-${r}`), n, false, images))
    on.push(await round(join(mode.tmp, `learn-on-${r}`), n, true, images))
  }
  const ratio = median(on) / median(off)
  const sightings = new Sightings({ times: 3, windowMs: 30 * 60_000 })
  for (let i = 0; i < 20_000; i++) sightings.see(`h${i}`, `m${i}`, i)
  return [
    {
      benchmark: `19 learning stickers: ingest per inbound image, learning on (${n} images of ${KB} KB, 1 in 10 repeated)`,
      figure: median(on), unit: 'ms', baseline: median(off), baselineLabel: 'learning off', ratio,
      target: '≤ 1.2× learning off', pass: ratio <= 1.2,
      note: `median of ${reps} interleaved rounds; registered, fetched at arrival from memory and stored, the fact handed to the stickers part; `
        + `on: ${on.map(x => x.toFixed(3)).join(', ')}; off: ${off.map(x => x.toFixed(3)).join(', ')}`,
    },
    {
      benchmark: '19 learning stickers: hashes the sightings remember after 20,000 distinct images',
      figure: sightings.size, unit: '', target: `≤ ${MAX_SIGHTINGS} (the LRU's bound)`, pass: sightings.size <= MAX_SIGHTINGS,
      note: 'each with at most seenTimes sightings: memory stays bounded however many images a group posts',
    },
  ]
}
