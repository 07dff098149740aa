// Child of read-first-page.ts: reads the first page of <dir>/<name> both ways, cold, and reports peak RSS.
import { join } from 'node:path'
import { readFilePage, TextCache } from '../src/resources/text'
import { localScheme } from '../src/resources/schemes/local'
import { report } from './measure'

async function main() {
  const [dir, name] = process.argv.slice(2)
  // maxRSS is in KiB; this first figure is the price of node, esbuild-register and the modules
  const beforeMB = process.resourceUsage().maxRSS / 1024
  const local = localScheme(dir)
  const cache = new TextCache()
  for (let i = 0; i < 5; i++) {
    cache.clear()
    await readFilePage({ path: join(dir, name), cache, continueUrl: n => `local://${name}?offset=${n}` })
    cache.clear()
    await local.read(`local://${name}`, { whole: false, maxBytes: 1 << 25, files: cache })
  }
  report({ beforeMB, peakMB: process.resourceUsage().maxRSS / 1024 })
}

main().catch((e) => { console.error(e); process.exit(1) })
