// The console page is built from client/ into dist/ (npm run build does it too). The demo and the
// browser test build it when dist/ is missing or older than a file of client/, so a checkout that
// changed the page never shows a stale one.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(__dirname, '..')

function newest(dir: string): number {
  let t = 0
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name)
    t = Math.max(t, d.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

/** Builds the page when it is missing or stale; says so on `log`. */
export function ensureClientBuilt(log?: (line: string) => void): void {
  let built = 0
  try {
    built = statSync(join(ROOT, 'dist', 'index.js')).mtimeMs
  } catch {}
  if (built && built >= newest(join(ROOT, 'client'))) return
  log?.('building the console page (client/ → dist/)…')
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-client.mjs')], { cwd: ROOT, stdio: log ? 'inherit' : 'ignore' })
}
