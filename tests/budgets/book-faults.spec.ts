// The budget book on real files (SPEC §22): a flush that fails (the budgets folder is a file: ENOTDIR,
// as on a broken or read-only volume) keeps every increment, logs once, and writes them all once the
// store works again; at midnight of budgets.timezone the counts start over and the old day's
// increments still reach the old day's file.
import { expect } from 'chai'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BudgetBook } from '../../src/budgets/book'
import { FileBudgetStore } from '../../src/budgets/file-store'
import { DEFAULT_BUDGETS } from '../../src/config/defaults'
import type { Clock } from '../../src/util/clock'

/** wall time the test sets; no timers fire (flushes are called by the test) */
function manualClock(now: number): Clock & { now(): number; set(t: number): void } {
  let t = now
  return {
    now: () => t, monotonic: () => t, set: (v: number) => { t = v },
    setTimeout: () => { const timer = { cancel() {}, unref: () => timer }; return timer },
    queueMicrotask: fn => queueMicrotask(fn),
  }
}

function logs() {
  const lines: string[] = []
  const at = (level: string) => (f: string, ...a: unknown[]) => { lines.push(`${level} ${[f, ...a].join(' ')}`) }
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } }
}

const rowsOf = async (dir: string, day: string) => JSON.parse(await readFile(join(dir, 'budgets', `${day}.json`), 'utf8'))
const spentOf = (rows: any[], key: string) => rows.find(r => r.key === key)?.spent

describe('budgets: the book on files, faults and midnight (SPEC §22)', function () {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-budgets-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  const bookOn = (clock: Clock, log = logs(), config = {}) =>
    new BudgetBook({ store: new FileBudgetStore(join(dir, 'budgets'), log.logger), clock, logger: log.logger, config: { ...DEFAULT_BUDGETS, timezone: 'Asia/Shanghai', ...config } })

  it('a failed flush loses no increment: logged once, all written when the folder can be written again', async () => {
    const clock = manualClock(Date.UTC(2026, 4, 1, 4, 0))   // 12:00 in Shanghai
    const log = logs()
    const book = bookOn(clock, log)
    await book.start()
    const gate = book.gateFor('neko', 'onebot:1')
    await writeFile(join(dir, 'budgets'), 'not a folder')
    gate.charge({ conversation: 'group:7', users: ['onebot:2'] }, 0.25)
    await book.flush()
    gate.charge({ conversation: 'group:7', users: ['onebot:2', 'onebot:3'] }, 0.5)
    await book.flush()
    expect(log.lines.filter(l => l.startsWith('warn'))).to.have.length(1)
    expect(log.lines.find(l => l.startsWith('warn'))).to.include('kept for the next try')

    await rm(join(dir, 'budgets'))
    gate.charge({ conversation: 'group:7' }, 0.25)
    await book.flush()
    const rows = await rowsOf(dir, '2026-05-01')
    expect(spentOf(rows, 'all')).to.equal(1)
    expect(spentOf(rows, 'profile:neko')).to.equal(1)
    expect(spentOf(rows, 'channel:neko/onebot:1/group:7')).to.equal(1)
    expect(spentOf(rows, 'user:onebot:2')).to.equal(0.5)
    expect(spentOf(rows, 'user:onebot:3')).to.equal(0.25)
    expect(log.lines.some(l => l.includes('stored again'))).to.equal(true)
  })

  it('midnight of budgets.timezone: the day starts over, the old day\'s spending stays in its file; a new book reads today\'s', async () => {
    const clock = manualClock(Date.UTC(2026, 4, 1, 15, 59))   // 23:59 in Shanghai
    const book = bookOn(clock, logs(), { perChannelDay: 1 })
    await book.start()
    const gate = book.gateFor('neko', 'onebot:1')
    const payer = { conversation: 'group:7' }
    gate.charge(payer, 1)
    expect(gate.check(payer)).to.include({ budget: 'perChannelDay', then: 'fallback' === DEFAULT_BUDGETS.onExceeded ? 'silent' : DEFAULT_BUDGETS.onExceeded })
    clock.set(Date.UTC(2026, 4, 1, 16, 0, 1))   // 00:00:01 on May 2nd there
    expect(gate.check(payer)).to.equal(undefined)
    gate.charge(payer, 0.5)
    await book.stop()
    expect(spentOf(await rowsOf(dir, '2026-05-01'), 'all')).to.equal(1)
    expect(spentOf(await rowsOf(dir, '2026-05-02'), 'all')).to.equal(0.5)

    const again = bookOn(clock, logs(), { perChannelDay: 1 })
    await again.start()
    const report = await again.report()
    expect(report.day).to.equal('2026-05-02')
    expect(report.lines.find(l => l.name === 'perChannelDay')).to.deep.include({ spent: 0.5, limit: 1 })
    await again.stop()
  })
})
