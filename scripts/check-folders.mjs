// Fails when two folders of src/, at any depth, import each other (npm run check:folders). A
// folder's own files are that folder, so src/koishi/service.ts importing src/koishi/inbound/x.ts
// while src/koishi/inbound/y.ts imports src/koishi/routing.ts is a pair. Reads dependency-cruiser's
// JSON (type-only imports included, as .dependency-cruiser.cjs reads them) and prints each
// offending pair with one example import each way.
import { execFileSync } from 'node:child_process'
import { posix } from 'node:path'

const root = process.argv[2] ?? 'src'
const cruise = execFileSync('npx', ['depcruise', root, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
  encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
})

/** `from folder → to folder` → one example import, `a.ts → b.ts` */
const edges = new Map()
for (const mod of JSON.parse(cruise).modules) {
  if (!mod.source.startsWith(`${root}/`)) continue
  const from = posix.dirname(mod.source)
  for (const dep of mod.dependencies) {
    if (!dep.resolved?.startsWith(`${root}/`)) continue
    const to = posix.dirname(dep.resolved)
    const key = `${from}\u0000${to}`
    if (from !== to && !edges.has(key)) edges.set(key, `${mod.source} → ${dep.resolved}`)
  }
}

const pairs = []
for (const [key, example] of edges) {
  const [from, to] = key.split('\u0000')
  if (from < to && edges.has(`${to}\u0000${from}`)) pairs.push([from, to, example, edges.get(`${to}\u0000${from}`)])
}

if (pairs.length) {
  console.error(`${pairs.length} pair(s) of folders import each other (a folder's own files count as the folder):`)
  for (const [a, b, there, back] of pairs.sort()) console.error(`  ${a} <-> ${b}\n    ${there}\n    ${back}`)
  process.exit(1)
}
console.log(`no two folders of ${root}/ import each other (${edges.size} folder imports)`)
