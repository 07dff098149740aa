// Builds the console page (client/ → dist/) with @koishijs/client, as Koishi's own console
// extensions are built (SPEC §12). Run by `npm run build`, and by the browser test when dist/ is missing.
import { fileURLToPath } from 'node:url'
import { dirname } from 'node:path'
import { createRequire } from 'node:module'

// vite's CJS entry (what @koishijs/client loads) warns on every build; nothing to act on here
process.env.VITE_CJS_IGNORE_WARNING = 'true'
const root = dirname(dirname(fileURLToPath(import.meta.url)))
const { build } = createRequire(import.meta.url)('@koishijs/client/lib')
const started = Date.now()
await build(root, { logLevel: 'warn' })
console.log(`console page built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`)
