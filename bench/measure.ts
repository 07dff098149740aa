// Shared timing, statistics, child processes and the result table of the bench suite.
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { join, resolve } from 'node:path'

export const ROOT = resolve(__dirname, '..')

export interface Mode {
  full: boolean
  /** the suite's temp folder; every benchmark makes its own subfolder */
  tmp: string
}

/** One line of the table. Figures and baselines are numbers in `unit`; a missing target is informational. */
export interface Row {
  benchmark: string
  figure: number
  unit: string
  baseline?: number
  baselineLabel?: string
  ratio?: number
  target?: string
  pass?: boolean
  note?: string
}

export const now = () => performance.now()

export function median(xs: number[]): number {
  return percentile(xs, 50)
}

/** Nearest-rank percentile. */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN
  const sorted = [...xs].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

export async function timeIt(fn: () => unknown): Promise<number> {
  const t = now()
  await fn()
  return now() - t
}

/**
 * Runs every subject `reps` times after `warmup` rounds, alternating subjects inside each round
 * (the order flips every round) so that a noisy neighbour hurts all of them alike.
 */
export async function interleave<K extends string>(
  subjects: Record<K, () => unknown>, reps: number, warmup = 1, between?: () => unknown,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(subjects) as K[]
  const out = Object.fromEntries(keys.map(k => [k, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < warmup + reps; round++) {
    const order = round % 2 ? [...keys].reverse() : keys
    for (const k of order) {
      const ms = await timeIt(subjects[k])
      if (round >= warmup) out[k].push(ms)
      await between?.()   // untimed clean-up
    }
  }
  return out
}

/** Runs a bench script in a fresh node (so its memory and start-up are its own); it prints one JSON line last. */
export function child<T = any>(script: string, args: string[] = [], nodeArgs: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...nodeArgs, '-r', 'esbuild-register', '-r', 'yml-register', '-r', join(ROOT, 'scripts', 'register-text.cjs'), join(ROOT, 'bench', script), ...args], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d })
    p.on('error', reject)
    p.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? ''
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${last}`))
      try {
        resolve(JSON.parse(last))
      } catch {
        reject(new Error(`${script} printed no JSON: ${out.slice(-500)}`))
      }
    })
  })
}

/** Runs an external command with stdout to /dev/null; resolves with its wall time in ms. */
export function timeCommand(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = now()
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] })
    p.on('error', reject)
    p.on('exit', code => code === 0 ? resolve(now() - t) : reject(new Error(`${cmd} exited with ${code}`)))
  })
}

/** What a child prints as its result. */
export function report(value: unknown): void {
  process.stdout.write('\n' + JSON.stringify(value) + '\n')
}

export const MB = 1024 * 1024

// ---------------------------------------------------------------- table

const fmt = (v: number | undefined, unit = ''): string => {
  if (v === undefined || Number.isNaN(v)) return '—'
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : Math.abs(v) >= 1 ? 2 : 3
  return v.toFixed(digits) + (unit ? ' ' + unit : '')
}

export function formatTable(rows: Row[]): string {
  const head = ['benchmark', 'figure', 'baseline', 'ratio', 'target', 'result']
  const body = rows.map(r => [
    r.benchmark,
    fmt(r.figure, r.unit),
    r.baseline === undefined ? '—' : `${fmt(r.baseline, r.unit)}${r.baselineLabel ? ` (${r.baselineLabel})` : ''}`,
    r.ratio === undefined ? '—' : `${fmt(r.ratio)}×`,
    r.target ?? '—',
    r.pass === undefined ? 'info' : r.pass ? 'PASS' : 'FAIL',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)))
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [line(head), '|' + widths.map(w => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n')
}
