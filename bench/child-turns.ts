// Child of turns.ts (run with --expose-gc). `time <dir>`: 1,000 timed turns interleaved with bare
// generateText calls. `rss <dir> <turns>`: memory before and after many turns.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { generateText } from 'ai'
import type { Runtime } from '../src/runtime/runtime'
import { benchRuntime, directFact, scriptedModel, sendCall, turn } from './runtime-setup'
import { MB, median, now, percentile, report } from './measure'

const CHANNELS = 100
const ZERO_TYPING = { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 }

async function timed(runtime: Runtime, timing: { modelMs: number }, n: number): Promise<number> {
  timing.modelMs = 0
  const t = now()
  await turn(runtime, directFact(n % CHANNELS))
  return now() - t - timing.modelMs   // the model's own time (≈ 0 here) is not overhead
}

async function time(dir: string) {
  const timing = { modelMs: 0 }
  const runtime = await benchRuntime({ dataDir: dir, model: scriptedModel(() => [sendCall(['ok'])], timing), typing: ZERO_TYPING })
  // The baseline: what one bare SDK call with the same model costs, no runtime around it.
  const bare = scriptedModel(() => [sendCall(['ok'])])
  const baseline = async () => {
    const t = now()
    await generateText({ model: bare, messages: [{ role: 'user', content: 'hello' }] })
    return now() - t
  }
  // warm-up: every conversation exists, and the JIT has seen a few rounds (one round left the first timed ones slow)
  for (let round = 0; round < 3; round++) for (let i = 0; i < CHANNELS; i++) await timed(runtime, timing, i)
  for (let i = 0; i < 50; i++) await baseline()
  const turns: number[] = []
  const bases: number[] = []
  for (let i = 0; i < 1000; i++) {
    if (i % 2) bases.push(await baseline())
    turns.push(await timed(runtime, timing, i))
    if (!(i % 2)) bases.push(await baseline())
  }
  // Informational: one long conversation whose context window is full (maxMessages 200), where
  // every step sends and validates the whole window.
  const long = CHANNELS + 1
  for (let i = 0; i < 100; i++) await turn(runtime, directFact(long))
  const conv = await runtime.conversation(`private:u${long}`)
  const request = await conv.buildRequest()
  const windowed = async () => {
    const t = now()
    await generateText({ model: bare, system: runtime.systemPrompt(), messages: request.messages })
    return now() - t
  }
  const longTurns: number[] = []
  const longBases: number[] = []
  for (let i = 0; i < 100; i++) {
    longBases.push(await windowed())
    timing.modelMs = 0
    const t = now()
    await turn(runtime, directFact(long))
    longTurns.push(now() - t - timing.modelMs)
  }
  await runtime.stop()
  report({
    median: median(turns), p90: percentile(turns, 90), p99: percentile(turns, 99), baseline: median(bases),
    long: { messages: request.messages.length, median: median(longTurns), p90: percentile(longTurns, 90), baseline: median(longBases) },
  })
}

const gc = () => {
  const g = (global as { gc?: () => void }).gc
  if (!g) throw new Error('run with --expose-gc')
  g(); g()
}

async function rss(dir: string, count: number) {
  const runtime = await benchRuntime({ dataDir: dir, model: scriptedModel(() => [sendCall(['ok'])]), typing: ZERO_TYPING })
  for (let i = 0; i < CHANNELS; i++) await turn(runtime, directFact(i))
  await runtime.written()
  gc()
  const start = process.memoryUsage()
  const samples: number[] = []
  const t = now()
  for (let i = 0; i < count; i++) {
    await turn(runtime, directFact(i % CHANNELS))
    if ((i + 1) % (count / 5) === 0) {
      await runtime.written()   // history writes go on behind the turns: count only what they keep
      gc()
      samples.push((process.memoryUsage().heapUsed - start.heapUsed) / MB)
    }
  }
  const seconds = (now() - t) / 1000
  await runtime.written()
  gc()
  const end = process.memoryUsage()
  // What the conversations hold in memory, and their history files
  let entries = 0
  for (const s of await runtime.status()) entries += s.entries
  const files = join(runtime.home, 'conversations')
  let diskBytes = 0
  for (const f of await readdir(files)) diskBytes += (await stat(join(files, f))).size
  await runtime.stop()
  report({
    rssMB: (end.rss - start.rss) / MB, heapMB: (end.heapUsed - start.heapUsed) / MB, startRssMB: start.rss / MB,
    heapSamplesMB: samples, entries, diskMB: diskBytes / MB, seconds,
  })
}

const [what, dir, n] = process.argv.slice(2)
;(what === 'time' ? time(dir) : rss(dir, Number(n))).catch((e) => { console.error(e); process.exit(1) })
