// Child of voice.ts: hearing 10-second SILK voices end to end (fetched from a local media host,
// recognised, decoded, uploaded to a local speech server that answers after a fixed latency) against
// a bare multipart upload of the same decoded WAV; SILK decoding alone; the heap while 20 voices
// arrive at once against 20 images of the same size fetched without hearing.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { encode } from 'silk-wasm'
import { configSchema } from '../src/runtime/config-of-parts'
import { ModelCalls } from '../src/model/calls'
import { createModel } from '../src/model/provider'
import { AssetStore, type Fetcher } from '../src/resources/schemes/asset-store'
import { httpGet } from '../src/resources/schemes/http-fetch'
import { systemClock } from '../src/util/clock'
import { Hearing } from '../src/voice/hearing'
import type { VoiceConfig } from '../src/voice/config'
import { decodeSilk } from '../src/voice/silk'
import { pcmToWav } from '../src/voice/wav'
import { median, now, report } from './measure'

const [tmp, repsArg, latencyArg] = process.argv.slice(2)
const REPS = Number(repsArg)
const LATENCY_MS = Number(latencyArg)
const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const gc = (globalThis as any).gc as () => void
const used = () => { const u = process.memoryUsage(); return u.heapUsed + u.arrayBuffers }
const fetcher: Fetcher = async (url, o) => { const r = await httpGet(url, { allowPrivate: true, ...o }); return { data: r.data, mediaType: r.mediaType } }

/** `seconds` of a speech-like tone at 24 kHz, the rate QQ's voices come at */
function tone(seconds: number): Buffer {
  const rate = 24000
  const out = Buffer.alloc(seconds * rate * 2)
  for (let i = 0; i < seconds * rate; i++) out.writeInt16LE(Math.round(8000 * (0.55 + 0.45 * Math.sin(8 * Math.PI * i / rate)) * Math.sin(2 * Math.PI * 220 * i / rate)), i * 2)
  return out
}

async function main() {
  const clip = Buffer.from((await encode(tone(10), 24000)).data)
  const long = Buffer.from((await encode(tone(60), 24000)).data)
  const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(clip.length - 8, 7)])
  const media = createServer((req, res) => {
    const body = req.url!.startsWith('/img') ? image : clip
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body)
  })
  // a speech server: reads the whole upload, answers after its latency (what recognising 10 s takes on a fast local server)
  const uploads: number[] = []
  const stt = createServer((req, res) => {
    let size = 0
    req.on('data', (c: Buffer) => { size += c.length })
    req.on('end', () => {
      uploads.push(size)
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"好的，我知道了"}'), LATENCY_MS)
    })
  })
  await Promise.all([media, stt].map(s => new Promise<void>(r => s.listen(0, '127.0.0.1', r))))
  const origin = (s: typeof media) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  const config = configSchema({
    models: [{ id: 'ears', baseURL: `${origin(stt)}/v1`, apiKey: '', model: 'whisper-1', maxRetries: 0, timeoutMs: 30000 }],
    profiles: [{ id: 'p', model: 'ears', claims: [{ bot: '*', channels: ['*'] }], voice: { stt: 'ears' } }],
  } as any)
  const models = new Map([['ears', createModel(config.models[0] as any)]])
  const calls = new ModelCalls({ models, usage: { record() {} }, clock: systemClock, logger: quiet })
  const wavOf = pcmToWav(await decodeSilk(clip))
  let n = 0

  /** One store and hearing; `count` voices (or images) arrive one after another, then all are done with. */
  async function arrive(count: number, what: 'voice' | 'image', sample?: () => void) {
    const dir = await mkdtemp(join(tmp, 'voice-'))
    const assets = new AssetStore(dir, fetcher)
    let heard = 0
    const hearing = new Hearing({ config: config.profiles[0].voice as VoiceConfig, assets, calls, clock: systemClock, logger: quiet, append: async () => { heard++ } })
    const timer = sample && setInterval(sample, 10)
    for (let i = 0; i < count; i++) {
      const id = await assets.register(`${origin(media)}/${what === 'image' ? 'img' : 'ptt'}/${++n}?rkey=x`, {}, { fetchNow: true })
      if (what === 'voice') hearing.hear(`asset://${id}`, { conversation: 'c', id: String(n), channel: 'c', user: { id: 'u', name: 'U' } })
    }
    await assets.idle()
    await hearing.idle()
    if (timer) clearInterval(timer)
    if (what === 'voice' && heard !== count) throw new Error(`${heard} of ${count} transcripts`)
    assets.stop()
    await rm(dir, { recursive: true, force: true })
  }

  const bare = async () => {
    const form = new FormData()
    form.append('model', 'whisper-1')
    form.append('file', new File([new Uint8Array(wavOf)], 'audio.wav', { type: 'audio/wav' }))
    const res = await fetch(`${origin(stt)}/v1/audio/transcriptions`, { method: 'POST', body: form })
    if (!(await res.json() as any).text) throw new Error('no text')
  }

  const ours: number[] = []
  const plain: number[] = []
  await arrive(1, 'voice')
  await bare()
  for (let r = 0; r < REPS; r++) {
    for (const way of r % 2 ? ['bare', 'ours'] : ['ours', 'bare']) {
      const t = now()
      if (way === 'ours') await arrive(1, 'voice')
      else await bare()
      ;(way === 'ours' ? ours : plain).push(now() - t)
    }
  }

  const decodes: number[] = []
  for (let r = 0; r < REPS; r++) {
    const t = now()
    await decodeSilk(long)
    decodes.push(now() - t)
  }

  const peak = async (what: 'voice' | 'image') => {
    gc()
    const before = used()
    let top = before
    await arrive(20, what, () => { gc(); top = Math.max(top, used()) })
    top = Math.max(top, used())
    return (top - before) / 1024 / 1024
  }
  const memory = { voice: await peak('voice'), image: await peak('image') }
  media.close()
  stt.close()
  report({ ours: median(ours), bare: median(plain), decode60: median(decodes), memory, clipBytes: clip.length, wavBytes: wavOf.length, uploaded: uploads.at(-1) })
}

main().catch((e) => { console.error(e); process.exit(1) })
