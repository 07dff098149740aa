// 20. Voice (SPEC §20): hearing a 10-second SILK voice end to end against a bare upload of the same
// decoded audio to the same speech server; SILK decoding on its own; the heap while 20 voices arrive
// at once. In a child process with --expose-gc (bench/child-voice.ts).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { child, type Mode, type Row } from './measure'

/** what the local speech server takes to recognise a 10-second clip (a fast local faster-whisper or SenseVoice) */
const LATENCY_MS = 300

export async function voice(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'voice')
  await mkdir(dir, { recursive: true })
  const reps = mode.full ? 15 : 7
  const r = await child<{ ours: number; bare: number; decode60: number; memory: { voice: number; image: number }; clipBytes: number; wavBytes: number }>(
    'child-voice.ts', [dir, String(reps), String(LATENCY_MS)], ['--expose-gc'])
  const ratio = r.ours / r.bare
  return [
    {
      benchmark: '20 voice: a 10 s SILK voice heard (fetch, detect, decode, upload, words back)',
      figure: r.ours, unit: 'ms', baseline: r.bare, baselineLabel: 'bare multipart upload of the decoded WAV', ratio,
      target: '≤ 1.2×', pass: ratio <= 1.2,
      note: `median of ${reps}, interleaved; the speech server answers ${LATENCY_MS} ms after the upload; `
        + `SILK ${(r.clipBytes / 1024).toFixed(0)} KB → WAV ${(r.wavBytes / 1024).toFixed(0)} KB at 16 kHz`,
    },
    {
      benchmark: '20 voice: SILK decode time per second of audio',
      figure: r.decode60 / 60, unit: 'ms', note: `a 60 s voice decoded in ${r.decode60.toFixed(0)} ms (median of ${reps})`,
    },
    {
      benchmark: '20 voice: SILK decode throughput',
      figure: 60 / (r.decode60 / 1000), unit: '× real time', target: '≥ 20×', pass: 60 / (r.decode60 / 1000) >= 20,
      note: 'seconds of audio decoded per second of wall time (silk-wasm, 16 kHz out)',
    },
    {
      benchmark: '20 voice: heap while 20 voices arrive at once (peak growth)',
      figure: r.memory.voice, unit: 'MB', baseline: r.memory.image, baselineLabel: '20 images of the same size, fetched without hearing',
      ratio: r.memory.voice / r.memory.image,
      note: 'heapUsed + arrayBuffers after a gc() every 10 ms; at most 2 voices are decoded and uploaded at once',
    },
  ]
}
