// Fails when a file under src/ is longer than MAX_LINES, or a line of its code is wider than
// MAX_COLUMNS, printing the offenders (npm run check:size). Prose the model reads (.md, .txt) is
// exempt from the width: a line there is a paragraph. Generated files are exempt: list them in GENERATED.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const MAX_LINES = 300
const MAX_COLUMNS = 160
const CODE = /\.(ts|mts|cts|js|mjs|cjs|vue)$/
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

function lines(text) {
  if (!text) return []
  const all = text.split('\n')
  return text.endsWith('\n') ? all.slice(0, -1) : all
}

const long = []
const wide = []
for (const path of walk(root)) {
  const name = relative('.', path).split(sep).join('/')
  if (GENERATED.has(name)) continue
  const all = lines(readFileSync(path, 'utf8'))
  if (all.length > MAX_LINES) long.push({ name, lines: all.length })
  if (CODE.test(name)) all.forEach((line, i) => { if (line.length > MAX_COLUMNS) wide.push({ name, line: i + 1, columns: line.length }) })
}

if (long.length) {
  long.sort((a, b) => b.lines - a.lines)
  console.error(`${long.length} file(s) under ${root}/ exceed ${MAX_LINES} lines:`)
  for (const { name, lines } of long) console.error(`  ${name}: ${lines} lines`)
}
if (wide.length) {
  console.error(`${wide.length} line(s) of code under ${root}/ are wider than ${MAX_COLUMNS} columns:`)
  for (const { name, line, columns } of wide) console.error(`  ${name}:${line}: ${columns} columns`)
}
if (long.length || wide.length) process.exit(1)
console.log(`check-file-size: no file under ${root}/ exceeds ${MAX_LINES} lines, no line of code wider than ${MAX_COLUMNS} columns`)
