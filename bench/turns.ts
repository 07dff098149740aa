// 6. What the runtime adds to a turn when the model answers instantly, and whether memory stays flat.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { child, type Mode, type Row } from './measure'

export async function turnOverhead(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'turns')
  await mkdir(join(dir, 'time'), { recursive: true })
  await mkdir(join(dir, 'rss'), { recursive: true })
  // Children: their heaps hold only the runtime, and --expose-gc makes the RSS figures steady.
  // The timing is noisy on shared machines: several runs, each with its own baseline; the run with
  // the median ratio is reported.
  const runs: any[] = []
  for (let r = 0; r < (mode.full ? 5 : 3); r++) {
    await mkdir(join(dir, `time${r}`), { recursive: true })
    runs.push(await child('child-turns.ts', ['time', join(dir, `time${r}`)], ['--expose-gc']))
  }
  runs.sort((a, b) => a.median / a.baseline - b.median / b.baseline)
  const t = runs[Math.floor(runs.length / 2)]
  const ratios = runs.map(x => (x.median / x.baseline).toFixed(2)).join(', ')
  const count = mode.full ? 10_000 : 2_000
  const m = await child('child-turns.ts', ['rss', join(dir, 'rss'), String(count)], ['--expose-gc'])
  return [
    {
      benchmark: '6 turn overhead: 1,000 one-step turns over 100 channels (median)', figure: t.median, unit: 'ms',
      baseline: t.baseline, baselineLabel: 'bare generateText', ratio: t.median / t.baseline, target: 'ratio ≤ 1.5', pass: t.median / t.baseline <= 1.5,
      note: `p90 ${t.p90.toFixed(2)} ms, p99 ${t.p99.toFixed(2)} ms; ratios of the ${runs.length} runs: ${ratios}`,
    },
    {
      benchmark: `6 turn overhead with a full context window (${t.long.messages} messages, informational)`, figure: t.long.median, unit: 'ms',
      baseline: t.long.baseline, baselineLabel: 'bare generateText, same messages', ratio: t.long.median / t.long.baseline,
      note: `p90 ${t.long.p90.toFixed(2)} ms`,
    },
    {
      benchmark: `6 RSS growth after ${count.toLocaleString('en')} turns`, figure: m.rssMB, unit: 'MB',
      baseline: m.startRssMB, baselineLabel: 'RSS after warm-up', target: '≤ 100 MB', pass: m.rssMB <= 100,
      note: `heap growth ${m.heapMB.toFixed(1)} MB; at each fifth of the run ${m.heapSamplesMB.map((x: number) => x.toFixed(1)).join(', ')} MB; `
        + `${m.entries} history entries held in memory, ${m.diskMB.toFixed(1)} MB of history on disk; `
        + `${m.seconds.toFixed(1)} s, ${(m.seconds * 1000 / count).toFixed(1)} ms a turn as the windows fill`,
    },
  ]
}
