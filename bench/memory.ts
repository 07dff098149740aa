// 9. What memory adds to building a request (SPEC §13): two runtimes in one run, one with 1,000
// notes in local://memory/ and a pinned file, one with memory off, the same history in both.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Runtime } from '../src/runtime/runtime'
import { benchRuntime, directFact, scriptedModel, sendCall, turn } from './runtime-setup'
import { interleave, median, now, type Mode, type Row } from './measure'
import { memoryPart } from '../src/memory/part'

const FILES = 1000
const HISTORY_TURNS = 30

/** One request as a step builds it: the system prompt (with the memory section) and the messages. */
async function buildRequest(runtime: Runtime, channel: string): Promise<number> {
  const conv = await runtime.conversation(channel)
  const system = runtime.systemPrompt()
  const request = await conv.buildRequest()
  return system.length + request.chars
}

async function setUp(dir: string, memory: boolean): Promise<Runtime> {
  const local = join(dir, 'p', 'bench', '1', 'local')
  if (memory) {
    await mkdir(join(local, 'memory', 'people'), { recursive: true })
    for (let i = 0; i < FILES; i++) {
      await writeFile(join(local, 'memory', 'people', `u${i}.md`), `User ${i}: ${'likes tea, plays go, lives in Kyoto. '.repeat(3)}\nnotes\n`.repeat(4))
    }
    await writeFile(join(local, 'memory', 'core.md'), 'I am the bot of this group.\n'.repeat(60))
  }
  const runtime = await benchRuntime({
    dataDir: dir, model: scriptedModel(() => [sendCall(['ok'])]),
    typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 },
    profile: { memory: { enabled: memory, maxFiles: FILES + 100 } },
  })
  // the same history in both: a conversation with some turns behind it
  for (let i = 0; i < HISTORY_TURNS; i++) await turn(runtime, directFact(1, `message ${i}: ${'some chat text '.repeat(5)}`))
  return runtime
}

export async function memorySection(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'memory')
  const [on, off] = await Promise.all([setUp(join(dir, 'on'), true), setUp(join(dir, 'off'), false)])
  const channel = 'private:u1'
  const reps = mode.full ? 5000 : 1000
  if (!on.systemPrompt().includes('## Memory')) throw new Error('the memory section is missing')
  const requests = await interleave({
    withMemory: () => buildRequest(on, channel),
    without: () => buildRequest(off, channel),
    section: () => on.part(memoryPart)!.memory.section(),
    // once per turn: stat the folders and the pinned file for the owner's changes
    turnCheck: () => on.part(memoryPart)!.memory.prepare(),
  }, reps, 50)
  // a write changes one note: the next request renders the section again (the index is cached)
  const writes: number[] = []
  for (let i = 0; i < (mode.full ? 300 : 100); i++) {
    await on.resources.write(`local://memory/people/u${i}.md`, { append: `seen at ${i}\n` })
    const t = now()
    on.part(memoryPart)!.memory.section()
    writes.push(now() - t)
  }
  const stats = await on.part(memoryPart)!.memory.stats()
  const sectionUnits = on.part(memoryPart)!.memory.section().length
  await Promise.all([on.stop(), off.stop()])
  // the first build after a start: one walk of local/ and the first line of every note
  const cold: number[] = []
  for (let i = 0; i < (mode.full ? 10 : 5); i++) {
    const fresh = await benchRuntime({ dataDir: join(dir, 'on'), model: scriptedModel(() => []), profile: { memory: { maxFiles: FILES + 100 } } })
    const t = now()
    await fresh.part(memoryPart)!.memory.prepare()
    fresh.systemPrompt()
    cold.push(now() - t)
    await fresh.stop()
  }
  const base = median(requests.without)
  const us = (ms: number) => ms * 1000
  const row = (benchmark: string, ms: number, extra: Partial<Row> = {}): Row => ({ benchmark, figure: us(ms), unit: 'µs', baseline: us(base), baselineLabel: 'request without memory', ratio: ms / base, ...extra })
  return [
    row(`10 memory section, ${FILES.toLocaleString('en')} files`, median(requests.section), {
      target: '≤ 0.1', pass: median(requests.section) / base <= 0.1,
      note: `the section as a request takes it from the cache (${sectionUnits} units; local/ holds ${stats.files} files, ${stats.bytes} bytes)`,
    }),
    row('10 request with memory (whole)', median(requests.withMemory), { note: 'system prompt with the memory section + the history window, against the same without memory' }),
    row('10 turn-start check for owner changes', median(requests.turnCheck), { note: 'a stat per known folder and per pinned file, once per turn' }),
    row('10 section after a write', median(writes), { note: 'rendering the section again from the cache after one note changed' }),
    row('10 first build, cold', median(cold), { note: `one walk of local/ and the first line of ${FILES} notes, once per runtime start` }),
  ]
}
