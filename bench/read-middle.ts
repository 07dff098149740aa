// 2. A page from the middle line of a big log against sed on the same file; then its Continue page.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { TextCache } from '../src/resources/text'
import { localScheme } from '../src/resources/schemes/local'
import { writeLog } from './data'
import { median, now, timeCommand, type Mode, type Row } from './measure'

export async function readMiddle(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'middle')
  await mkdir(dir, { recursive: true })
  const lines = mode.full ? 2_000_000 : 200_000
  const label = mode.full ? '200 MB' : '20 MB'
  const file = join(dir, 'log.txt')
  await writeLog(file, lines)
  const n = lines / 2
  const local = localScheme(dir)
  const cache = new TextCache()
  const read = (url: string) => local.read(url, { whole: false, maxBytes: 1 << 25, files: cache })

  const first: number[] = []
  const next: number[] = []
  const sed: number[] = []
  const sedQuit: number[] = []
  const reps = mode.full ? 7 : 11
  // The order flips every round so that neither side always runs right after the other.
  for (let round = 0; round < reps + 1; round++) {
    const ours = async () => {
      cache.clear()   // no line index yet: the first page must scan to line n
      let t = now()
      const page = await read(`local://log.txt:${n}`)
      const tFirst = now() - t
      if (page.kind !== 'text' || !page.text.startsWith(`${n} `)) throw new Error(`the page does not start at line ${n}`)
      const url = (page as { continueUrl?: string }).continueUrl
      if (!url) throw new Error('the middle page has no Continue URL')
      t = now()
      const second = await read(url)
      const tNext = now() - t
      if (second.kind !== 'text' || second.source.line <= n) throw new Error('the Continue page does not follow the first')
      return [tFirst, tNext]
    }
    const baseline = () => timeCommand('sed', ['-n', `${n},+1999p`, file])
    let pair: number[], s: number
    if (round % 2) {
      s = await baseline()
      pair = await ours()
    } else {
      pair = await ours()
      s = await baseline()
    }
    // Informational: a sed that stops after the range, the fairest possible competitor.
    const q = await timeCommand('sed', ['-n', `${n},${n + 1999}p;${n + 1999}q`, file])
    if (round === 0) continue   // warm-up: page cache, JIT
    first.push(pair[0])
    next.push(pair[1])
    sed.push(s)
    sedQuit.push(q)
  }
  const f = median(first)
  return [
    {
      benchmark: `2 page at line ${n} of a ${label} log (local://log.txt:${n})`, figure: f, unit: 'ms',
      baseline: median(sed), baselineLabel: `sed -n '${n},+1999p'`, ratio: f / median(sed), target: 'ratio ≤ 1.5', pass: f / median(sed) <= 1.5,
    },
    {
      benchmark: '2 the same page vs sed that quits after the range', figure: f, unit: 'ms',
      baseline: median(sedQuit), baselineLabel: `sed '...;${n + 1999}q'`, ratio: f / median(sedQuit),
    },
    {
      benchmark: '2 its Continue page (cached line offsets)', figure: median(next), unit: 'ms',
      baseline: f, baselineLabel: 'first page', ratio: median(next) / f, target: 'ratio ≤ 0.2', pass: median(next) / f <= 0.2,
    },
  ]
}
