// 24. Budgets (SPEC §22): what the gate adds to a model request (ModelCalls.run with and without a
// gate, the model answering at once so only kotodama's own work is timed), and a simulated day of
// 100 groups through the book: time, heap, and the flush that writes it.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { BudgetBook } from '../src/budgets/book'
import { FileBudgetStore } from '../src/budgets/file-store'
import { DEFAULT_BUDGETS } from '../src/config/defaults'
import { ModelCalls } from '../src/model/calls'
import { withPayer } from '../src/model/payer-scope'
import type { ModelHandle } from '../src/model/provider'
import { systemClock } from '../src/util/clock'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { interleave, median, now, type Mode, type Row } from './measure'

// the heap figure needs a collection before and after
setFlagsFromString('--expose-gc')
const gc: () => void = runInNewContext('gc')

const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const CONFIG = { ...DEFAULT_BUDGETS, day: 1e9, perProfileDay: 1e9, perChannelDay: 1e9, perUserDay: 1e9 }

function callsWith(gate: boolean, book: BudgetBook): ModelCalls {
  const config = { id: 'm', model: 'm', baseURL: '', price: { input: 1, output: 2 }, timeoutMs: 1000, maxRetries: 0 } as any
  const models = new Map<string, ModelHandle>([['m', { config, model: 'm' as any }]])
  return new ModelCalls({ models, usage: { record() {} }, clock: systemClock, logger: quiet, ...gate ? { gate: book.gateFor('p', 'onebot:1') } : {} })
}

export async function budgets(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'budgets')
  await mkdir(dir, { recursive: true })
  const book = new BudgetBook({ store: new FileBudgetStore(join(dir, 'gate')), clock: systemClock, logger: quiet, config: CONFIG })
  const plain = callsWith(false, book)
  const gated = callsWith(true, book)
  const N = mode.full ? 20_000 : 5_000
  const spec = { kind: 'step' as const, model: 'm', call: async () => 'ok', tokens: () => ({ promptTokens: 1000, completionTokens: 100 }) }
  const payer = { conversation: 'group:1', users: ['onebot:2', 'onebot:3'] }
  const many = (calls: ModelCalls) => () => withPayer(payer, async () => { for (let i = 0; i < N; i++) await calls.run(spec) })
  const times = await interleave({ plain: many(plain), gated: many(gated) }, mode.full ? 9 : 5)
  const per = (ms: number) => ms / N * 1000
  const plainUs = per(median(times.plain))
  const gatedUs = per(median(times.gated))

  // a day: 100 groups × 60 turns × 3 steps, each turn woken by one or two of 3000 people
  const dayBook = new BudgetBook({ store: new FileBudgetStore(join(dir, 'day')), clock: systemClock, logger: quiet, config: CONFIG })
  const gate = dayBook.gateFor('p', 'onebot:1')
  gc()
  const heap0 = process.memoryUsage().heapUsed
  const t0 = now()
  let requests = 0
  for (let turn = 0; turn < 60; turn++) {
    for (let g = 0; g < 100; g++) {
      const users = [`onebot:${(g * 30 + turn) % 3000}`, ...turn % 3 ? [] : [`onebot:${(g * 30 + turn + 7) % 3000}`]]
      const p = { conversation: `group:${g}`, users }
      for (let s = 0; s < 3; s++) {
        gate.check(p)
        gate.charge(p, 0.0012)
        requests++
      }
    }
  }
  const dayMs = now() - t0
  gc()
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024
  const f0 = now()
  await dayBook.flush()
  const flushMs = now() - f0
  const report = await dayBook.report()
  const keys = report.lines.reduce((n, l) => n + l.top.length, 0)
  return [
    {
      benchmark: '24 budgets: a model request through ModelCalls.run with the gate (check + charge)', figure: gatedUs, unit: 'µs',
      baseline: plainUs, baselineLabel: 'the same request without a gate', ratio: gatedUs / plainUs,
      target: 'gate adds < 10 µs', pass: gatedUs - plainUs < 10, note: `gate adds ${(gatedUs - plainUs).toFixed(2)} µs a request`,
    },
    {
      benchmark: `24 budgets: a day of 100 groups (${requests} requests) through the book`, figure: dayMs, unit: 'ms',
      target: '< 1 s', pass: dayMs < 1000,
      note: `heap +${heapMb.toFixed(2)} MB (100 channels, 3000 people); the flush of the day's keys took ${flushMs.toFixed(1)} ms; top keys shown ${keys}`,
    },
  ]
}
