// Fails when a file under src/ is longer than MAX_LINES, printing the offenders
// (npm run check:size). Generated files are exempt: list them in GENERATED.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const MAX_LINES = 400
/** Paths relative to the repository root, with forward slashes. */
const GENERATED = new Set([])

const root = process.argv[2] ?? 'src'

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (entry.isFile()) yield path
  }
}

function countLines(text) {
  if (!text) return 0
  const lines = text.split('\n').length
  return text.endsWith('\n') ? lines - 1 : lines
}

const offenders = []
for (const path of walk(root)) {
  const name = relative('.', path).split(sep).join('/')
  if (GENERATED.has(name)) continue
  const lines = countLines(readFileSync(path, 'utf8'))
  if (lines > MAX_LINES) offenders.push({ name, lines })
}

if (offenders.length) {
  offenders.sort((a, b) => b.lines - a.lines)
  console.error(`${offenders.length} file(s) under ${root}/ exceed ${MAX_LINES} lines:`)
  for (const { name, lines } of offenders) console.error(`  ${name}: ${lines} lines`)
  process.exit(1)
}
console.log(`check-file-size: no file under ${root}/ exceeds ${MAX_LINES} lines`)
