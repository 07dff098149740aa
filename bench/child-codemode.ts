// Child of codemode.ts: the first program of a fresh process, with or without warmUp() first.
import { now, report } from './measure'
import { LIMITS } from './sandbox-limits'

async function main() {
  const withWarmUp = process.argv[2] === 'warm'
  let t = now()
  const { Sandbox }: typeof import('../src/sandbox') = require('../src/sandbox')
  const importMs = now() - t
  const sandbox = new Sandbox()
  let warmUpMs: number | undefined
  if (withWarmUp) {
    t = now()
    await sandbox.warmUp()
    warmUpMs = now() - t
  }
  t = now()
  const out = await sandbox.run('return 1', { tools: {}, limits: LIMITS })
  const firstMs = now() - t
  if (!out.ok || out.value !== 1) throw new Error(`first program failed: ${JSON.stringify(out)}`)
  // performance.now() counts from process start
  const sinceStartMs = now()
  await sandbox.shutdown()
  report({ importMs, warmUpMs, firstMs, sinceStartMs })
}

main().catch((e) => { console.error(e); process.exit(1) })
