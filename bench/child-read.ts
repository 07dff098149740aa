// Child of read-first-page.ts: reads the first page of <dir>/<name> both ways, cold, and reports peak RSS.
import { join } from 'node:path'
import { clearTextSourceCache, readFilePage } from '../src/resources/text-source'
import { localScheme } from '../src/resources/schemes/local'
import { report } from './measure'

async function main() {
  const [dir, name] = process.argv.slice(2)
  // maxRSS is in KiB; this first figure is the price of node, esbuild-register and the modules
  const beforeMB = process.resourceUsage().maxRSS / 1024
  const local = localScheme(dir)
  for (let i = 0; i < 5; i++) {
    clearTextSourceCache()
    await readFilePage({ path: join(dir, name), continueUrl: n => `local://${name}?offset=${n}` })
    clearTextSourceCache()
    await local.read(`local://${name}`, { whole: false, maxBytes: 1 << 25 })
  }
  report({ beforeMB, peakMB: process.resourceUsage().maxRSS / 1024 })
}

main().catch((e) => { console.error(e); process.exit(1) })
