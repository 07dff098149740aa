// The console's budgets view (SPEC §22 "What it may cost"): the listener the page calls reports
// today's spending (the day of budgets.timezone) against config.budgets' limits, from the rows the
// configured store holds: the day's file of the budget book (storage: files) or the budget table
// (storage: database), read again at each call through the plugin's budget book. A broken day file
// is set aside (kept) and logged; a database that is missing is logged, never a crash.
import { expect } from 'chai'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { registerBudgets } from '../../src/koishi/console/budgets'
import { koishiBudgetTable } from '../../src/koishi/budget-table'
import type { SpentRow } from '../../src/budgets/store'
import { atomicWrite } from '../../src/util/atomic-write'
import { systemClock } from '../../src/util/clock'
import { Harness } from '../support/harness'
import { captureListeners } from '../support/console-listeners'
import { memoryDatabase } from '../support/databases'

// 17:30 UTC on Dec 4 is 01:30 on Dec 5 in Shanghai: kotodama's day is the 5th
const NOW = Date.parse('2026-12-04T17:30:00Z')
const LIMITS = { day: 2, perProfileDay: 1.5, perChannelDay: 0.5, perUserDay: 0, timezone: 'Asia/Shanghai' }
const JAZZ = 'channel:neko/onebot:514/group:77'
const QUIZ = 'channel:neko/onebot:514/group:88'

const rows = (day: string): SpentRow[] => [
  { day, scope: 'all', key: 'all', spent: 1.25 },
  { day, scope: 'profile', key: 'profile:neko', spent: 1.25 },
  { day, scope: 'channel', key: QUIZ, spent: 0.25, label: 'Quiz night' },
  { day, scope: 'channel', key: JAZZ, spent: 1, label: 'Jazz club' },
  { day, scope: 'user', key: 'user:onebot:10001', spent: 0.75, label: 'Mia' },
  { day, scope: 'user', key: 'user:onebot:10002', spent: 0.5 },
]

const expected = {
  day: '2026-12-05',
  lines: [
    { name: 'day', limit: 2, spent: 1.25, top: [{ key: 'all', spent: 1.25 }] },
    { name: 'perProfileDay', limit: 1.5, spent: 1.25, top: [{ key: 'profile:neko', spent: 1.25 }] },
    { name: 'perChannelDay', limit: 0.5, spent: 1, top: [{ key: JAZZ, spent: 1, label: 'Jazz club' }, { key: QUIZ, spent: 0.25, label: 'Quiz night' }] },
    { name: 'perUserDay', limit: 0, spent: 0.75, top: [{ key: 'user:onebot:10001', spent: 0.75, label: 'Mia' }, { key: 'user:onebot:10002', spent: 0.5 }] },
  ],
}

describe('console: the budgets view', function () {
  this.timeout(15000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  const start = async (o: Parameters<typeof Harness.start>[0] = {}) => {
    h = await Harness.start({ budgets: LIMITS, ...o })
    h.app.kotodama.clock = { ...systemClock, now: () => NOW }
    return captureListeners(h.app, registerBudgets)
  }

  it('storage: files — today\'s file of the budget book, in budgets.timezone, against the limits', async () => {
    const l = await start()
    expect(l.got.get('kotodama/budgets')!.authority).to.equal(4)
    const dir = join(h!.dataDir, 'budgets')
    await mkdir(dir, { recursive: true })
    await atomicWrite(join(dir, '2026-12-05.json'), JSON.stringify(rows('2026-12-05')))
    // the host's day (UTC) is another day: its file is not today's
    await atomicWrite(join(dir, '2026-12-04.json'), JSON.stringify([{ day: '2026-12-04', scope: 'all', key: 'all', spent: 9 }]))
    expect(await l.send('kotodama/budgets')).to.deep.equal(expected)
    expect(h!.warnings()).to.deep.equal([])
  })

  it('storage: files — nothing spent yet; a broken file is set aside and the log names it; stray rows are left out', async () => {
    const l = await start()
    const nothing = await l.send('kotodama/budgets')
    expect(nothing.lines.map((x: any) => [x.name, x.limit, x.spent, x.top])).to.deep.equal([
      ['day', 2, 0, []], ['perProfileDay', 1.5, 0, []], ['perChannelDay', 0.5, 0, []], ['perUserDay', 0, 0, []],
    ])
    const file = join(h!.dataDir, 'budgets', '2026-12-05.json')
    await mkdir(join(h!.dataDir, 'budgets'), { recursive: true })
    await writeFile(file, '[{"day":"2026-12-05","scope":"all","key":"all","spent":0.')
    expect((await l.send('kotodama/budgets')).lines[0].spent).to.equal(0)
    expect(h!.warnings().join('\n')).to.include(`budgets: ${file} could not be read`).and.include('the day counts from 0')
    // kept beside it, never overwritten
    expect((await readdir(join(h!.dataDir, 'budgets'))).filter(n => n.startsWith('2026-12-05.json.bad-'))).to.have.length(1)
    await writeFile(file, JSON.stringify([...rows('2026-12-05'), { day: '2026-12-05', scope: 'all', key: 'all', spent: 'a lot' }, null]))
    expect(await l.send('kotodama/budgets')).to.deep.equal(expected)
  })

  it('storage: database — the rows the budget table holds, another store\'s adds included', async () => {
    const l = await start({ storage: 'database', database: memoryDatabase() })
    const store = koishiBudgetTable(h!.app)
    await store.add(rows('2026-12-05').map(r => ({ ...r, spent: r.spent / 2 })))
    await store.add(rows('2026-12-05').map(r => ({ ...r, spent: r.spent / 2 })))
    await store.add([{ day: '2026-12-04', scope: 'all', key: 'all', spent: 9 }])
    expect(await l.send('kotodama/budgets')).to.deep.equal(expected)
  })

  it('storage: database without a database service — nothing spent shown, the reason logged, never a crash', async () => {
    const l = await start({ storage: 'database' })
    const shown = await l.send('kotodama/budgets')
    expect(shown.lines.map((x: any) => x.spent)).to.deep.equal([0, 0, 0, 0])
    expect(h!.warnings().join('\n')).to.include('kotodama_budget: cannot read 2026-12-05: Koishi has no database service')
  })
})
