// Running from the TypeScript sources (tests, demo, benchmarks under esbuild-register), there is
// no lib/sandbox-worker.js: bundle worker/main.ts in memory once per process, as scripts/build.mjs
// does, and start workers from that text. A bundle, not esbuild-register inside every worker,
// because that would start an esbuild service per worker (~300 ms each).
import { dirname, join } from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'

const PRELOAD = /^(-r|--require|--import|--loader|--experimental-loader)(=|$)/

const MAIN = join(__dirname, 'worker', 'main.ts')
let source: string | undefined

/** The worker's code for `new Worker(code, { eval: true })`; its packages resolve from worker/. */
function devWorkerSource(): string {
  if (source === undefined) {
    // a dev dependency, present wherever the sources run
    const { buildSync } = require('esbuild') as typeof import('esbuild')
    const out = buildSync({
      entryPoints: [MAIN], bundle: true, write: false, platform: 'node', target: 'node20', format: 'cjs', packages: 'external',
    })
    // eval'd code resolves require() from the working directory; give it main.ts's instead
    source = `(function (require, module, exports, __filename, __dirname) {${out.outputFiles[0].text}\n})(` +
      `require('node:module').createRequire(${JSON.stringify(MAIN)}), { exports: {} }, {}, ${JSON.stringify(MAIN)}, ${JSON.stringify(dirname(MAIN))})`
  }
  return source
}

/**
 * A worker from the in-memory bundle, without the parent's preloads (-r esbuild-register,
 * yml-register, ...): the bundle needs none, and loading them (and the ESM hooks thread
 * yml-register starts) costs every worker ~100 ms. Other flags are kept; if Node refuses one of
 * them in an explicit execArgv (--trace-gc, ...), the worker inherits the parent's flags as usual.
 */
export function startDevWorker(options: WorkerOptions): Worker {
  const args = process.execArgv
  const kept: string[] = []
  for (let i = 0; i < args.length; i++) {
    const m = PRELOAD.exec(args[i])
    if (!m) kept.push(args[i])
    else if (m[2] !== '=') i++ // the value is the next argument
  }
  const code = devWorkerSource()
  if (kept.length === args.length) return new Worker(code, { ...options, eval: true })
  try {
    return new Worker(code, { ...options, eval: true, execArgv: kept })
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e
    return new Worker(code, { ...options, eval: true })
  }
}
