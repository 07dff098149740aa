// npm run bench [-- --full] [-- --only 1,4]: runs the suite, prints one table, writes bench/results/latest.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFirstPage } from './read-first-page'
import { readMiddle } from './read-middle'
import { pagingToEnd } from './paging'
import { exitArchive } from './exit'
import { codemode } from './codemode'
import { turnOverhead } from './turns'
import { typingPace } from './typing'
import { dialects } from './dialects'
import { mcpCall } from './mcp'
import { memorySection } from './memory'
import { scale } from './scale'
import { promptCache } from './prompt-cache'
import { attention } from './attention'
import { recall } from './recall'
import { toolSearch } from './tool-search'
import { prefetch } from './prefetch'
import { historyPull } from './history-pull'
import { stickers } from './stickers'
import { stickersLearn } from './stickers-learn'
import { voice } from './voice'
import { providerCache } from './provider-cache'
import { initiative } from './initiative'
import { sendElements } from './send-elements'
import { budgets } from './budgets'
import { acts } from './acts'
import { drawOverhead } from './pictures'
import { reactions } from './reactions'
import { schedulesHeld, schedulesRestart } from './schedules'
import { dailyMonth } from './schedules-month'
import { skills } from './skills'
import { webSearch } from './web'
import { upkeepCost } from './upkeep-cost'
import { upkeepRecall } from './upkeep-recall'
import { upkeepHelps } from './upkeep-helps'
import { formatTable, now, ROOT, type Mode, type Row } from './measure'

const SUITE: [string, string, (mode: Mode) => Promise<Row[]>][] = [
  ['1', 'read, first page', readFirstPage],
  ['2', 'read, middle page', readMiddle],
  ['3', 'paging to the end', pagingToEnd],
  ['4', 'unified exit', exitArchive],
  ['5', 'codemode', codemode],
  ['6', 'turn overhead', turnOverhead],
  ['7', 'typing', typingPace],
  ['8', 'tool-call dialects', dialects],
  ['9', 'MCP tool call', mcpCall],
  ['10', 'memory section', memorySection],
  ['11', 'scale', scale],
  ['12', 'prompt cache', promptCache],
  ['13', 'attention and timing', attention],
  ['14', 'tool search', toolSearch],
  ['15', 'recall', recall],
  ['16', 'inbound media fetched at arrival', prefetch],
  ['17', 'history pull', historyPull],
  ['18', 'sticker library', stickers],
  ['19', 'learning stickers', stickersLearn],
  ['20', 'voice', voice],
  ['21', 'provider prompt caches', providerCache],
  ['22', 'initiative', initiative],
  ['23', 'trust (SPEC §22)', sendElements],
  ['24', 'budgets (SPEC §22)', budgets],
  ['25', 'reactions people add (SPEC §23)', reactions],
  ['26', 'acts (SPEC §23)', acts],
  ['27', 'schedules: 10,000 open tasks (SPEC §25)', schedulesHeld],
  ['28', 'schedules: a restart', schedulesRestart],
  ['29', 'schedules: a month of a daily task', dailyMonth],
  ['30', 'skills in the system prompt (SPEC §24)', skills],
  ['31', 'pictures: draw overhead (SPEC §24)', drawOverhead],
  ['32', 'web search (SPEC §24)', webSearch],
  ['33', 'upkeep: one day of a busy group (SPEC §26)', upkeepCost],
  ['34', 'upkeep: recall with the notes it wrote', upkeepRecall],
  ['35', 'upkeep: does it help?', upkeepHelps],
]

async function main() {
  const args = process.argv.slice(2)
  const full = args.includes('--full')
  const onlyAt = args.indexOf('--only')
  const only = onlyAt >= 0 ? args[onlyAt + 1].split(',') : undefined
  const tmp = await mkdtemp(join(tmpdir(), 'kotodama-bench-'))
  const cleanup = () => rm(tmp, { recursive: true, force: true })
  process.once('SIGINT', () => { cleanup().finally(() => process.exit(130)) })

  const started = now()
  const rows: Row[] = []
  const errors: string[] = []
  try {
    for (const [id, name, run] of SUITE) {
      if (only && !only.includes(id)) continue
      const t = now()
      process.stderr.write(`bench ${id} ${name} ...`)
      try {
        rows.push(...await run({ full, tmp }))
      } catch (e: any) {
        errors.push(`${id} ${name}: ${e?.stack ?? e}`)
        rows.push({ benchmark: `${id} ${name}: did not complete`, figure: NaN, unit: '', pass: false, note: String(e?.message ?? e) })
      }
      process.stderr.write(` ${((now() - t) / 1000).toFixed(1)} s\n`)
    }
  } finally {
    await cleanup()
  }
  const seconds = (now() - started) / 1000

  console.log(formatTable(rows))
  for (const r of rows) if (r.note) console.log(`  ${r.benchmark}: ${r.note}`)
  for (const e of errors) console.error(e)
  const failed = rows.filter(r => r.pass === false).length
  console.log(`\n${full ? 'full' : 'quick'} mode, ${seconds.toFixed(0)} s, ${failed} of ${rows.filter(r => r.pass !== undefined).length} targets missed`)

  const results = join(ROOT, 'bench', 'results')
  await mkdir(results, { recursive: true })
  await writeFile(join(results, 'latest.json'), JSON.stringify({
    mode: full ? 'full' : 'quick', date: new Date().toISOString(), seconds, node: process.version, rows,
  }, null, 2) + '\n')
  // Missed targets are a finding, not a crash: the exit code stays 0 unless a benchmark broke.
  if (errors.length) process.exitCode = 1
}

main().catch((e) => { console.error(e); process.exit(1) })
