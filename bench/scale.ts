// 11. Many conversations on one machine (issue 15): memory per idle conversation, the cost of
// taking in a message, and how fast a burst of wake-ups reaches the model.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { child, type Mode, type Row } from './measure'

export async function scale(mode: Mode): Promise<Row[]> {
  const dir = (name: string) => join(mode.tmp, 'scale', name)
  for (const d of ['claimed', 'unclaimed', 'ingest', 'burst']) await mkdir(dir(d), { recursive: true })
  const conversations = mode.full ? 10_000 : 3_000
  const idle = {
    claimed: await child('child-scale.ts', ['idle', dir('claimed'), String(conversations), 'claimed'], ['--expose-gc']),
    unclaimed: await child('child-scale.ts', ['idle', dir('unclaimed'), String(conversations), 'unclaimed'], ['--expose-gc']),
  }
  const ingest = await child('child-scale.ts', ['ingest', dir('ingest'), '1000'], ['--expose-gc'])
  const burst = await child('child-scale.ts', ['burst', dir('burst'), '1000'], ['--expose-gc'])
  const net = (k: 'heapKB' | 'rssKB') => idle.claimed[k] - idle.unclaimed[k]
  const ratio = ingest.ratio
  return [
    {
      benchmark: `11 heap per idle conversation, people and an idle wake each (${conversations.toLocaleString('en')} conversations)`, figure: net('heapKB'), unit: 'KB',
      baseline: idle.unclaimed.heapKB, baselineLabel: 'same messages, unclaimed channels', target: '≤ 10 KB', pass: net('heapKB') <= 10,
      note: `claimed ${idle.claimed.heapKB.toFixed(2)} KB − unclaimed ${idle.unclaimed.heapKB.toFixed(2)} KB per channel`,
    },
    {
      benchmark: `11 RSS per idle conversation (${conversations.toLocaleString('en')} conversations, informational)`, figure: net('rssKB'), unit: 'KB',
      baseline: idle.unclaimed.rssKB, baselineLabel: 'same messages, unclaimed channels',
      note: `RSS after a full GC, ${idle.claimed.rssKB.toFixed(1)} KB − ${idle.unclaimed.rssKB.toFixed(1)} KB per channel; V8 keeps freed pages, so it is coarse`,
    },
    {
      benchmark: '11 ingest of a plain message (1,000 a round, 100 channels, median of 10 rounds)', figure: ingest.claimedMs, unit: 'ms',
      baseline: ingest.unclaimedMs, baselineLabel: 'same Koishi app, unclaimed channel', ratio, target: 'ratio ≤ 1.1', pass: ratio <= 1.1,
      note: `median of the rounds' ratios (each pair back to back): ${ingest.ratios.map((r: number) => r.toFixed(2)).join(', ')}`,
    },
    {
      benchmark: '11 wake-to-request latency, 1,000 private chats at once (p50)', figure: burst.wakeP50, unit: 'ms',
      baseline: burst.bareP50, baselineLabel: '1,000 bare generateText calls at once', ratio: burst.wakeP50 / burst.bareP50,
      target: 'ratio ≤ 2', pass: burst.wakeP50 / burst.bareP50 <= 2,
      note: `p99 ${burst.wakeP99.toFixed(0)} ms against ${burst.bareP99.toFixed(0)} ms bare; ${burst.answered} of ${burst.count} reached the model`,
    },
  ]
}
