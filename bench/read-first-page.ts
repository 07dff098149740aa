// 1. The first page of a huge text file costs what it costs for a small one, and little memory.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { readFilePage, TextCache } from '../src/resources/text'
import { localScheme } from '../src/resources/schemes/local'
import { writeTextFile } from './data'
import { child, interleave, median, MB, type Mode, type Row } from './measure'

export async function readFirstPage(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'first-page')
  await mkdir(dir, { recursive: true })
  const bigBytes = mode.full ? 1024 * MB : 100 * MB
  const label = mode.full ? '1 GB' : '100 MB'
  await writeTextFile(join(dir, 'big.txt'), bigBytes)
  await writeTextFile(join(dir, 'small.txt'), MB)

  const local = localScheme(dir)
  const cache = new TextCache()
  const page = (name: string) => async () => {
    cache.clear()   // cold: no line index from an earlier run
    const p = await readFilePage({ path: join(dir, name), cache, continueUrl: n => `local://${name}?offset=${n}` })
    if (p.nextOffset === undefined) throw new Error('expected a truncated first page')
  }
  const viaLocal = (name: string) => async () => {
    cache.clear()
    const r = await local.read(`local://${name}`, { whole: false, maxBytes: 1 << 25, files: cache })
    if (r.kind !== 'text' || !('continueUrl' in r)) throw new Error('expected a text page with a Continue URL')
  }
  const t = await interleave({
    pageSmall: page('small.txt'), pageBig: page('big.txt'),
    localSmall: viaLocal('small.txt'), localBig: viaLocal('big.txt'),
  }, 30, 3)

  // Peak RSS in a process of its own: the bench's own heap would hide it.
  const rss = await child('child-read.ts', [dir, 'big.txt'])

  const row = (benchmark: string, big: number[], small: number[]): Row => ({
    benchmark, figure: median(big), unit: 'ms', baseline: median(small), baselineLabel: '1 MB',
    ratio: median(big) / median(small), target: 'ratio ≤ 2', pass: median(big) / median(small) <= 2,
  })
  return [
    row(`1 first page of ${label}: readFilePage`, t.pageBig, t.pageSmall),
    row(`1 first page of ${label}: local:// read`, t.localBig, t.localSmall),
    {
      benchmark: `1 first page of ${label}: peak RSS of a reading process`, figure: rss.peakMB, unit: 'MB',
      baseline: rss.beforeMB, baselineLabel: 'same process before reading', target: '≤ 150 MB', pass: rss.peakMB <= 150,
    },
  ]
}
