// The console's budgets view in a real browser (SPEC §22 "What it may cost", docs/console.md): the
// demo with budgets set and today's day file of the budget book (budgets.timezone's day); each
// budget with its limit, today's spending, a bar, and who spent most. Debian's chromium driven by
// playwright-core. Screenshots test-output/browser/22-budgets.png and 22-budgets-zh.png.
import { expect } from 'chai'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import type { SpentRow } from '../../src/budgets/store'
import { atomicWrite } from '../../src/util/atomic-write'
import { dayOf } from '../../src/util/day'

const ZONE = 'Asia/Shanghai'
const RUNTIME = 'demo/sandbox:budgets:koishi'

describe('console page in a real browser: the budgets view', function () {
  this.timeout(60000)
  let day: string
  const s = demoInBrowser({
    prefix: 'budgets',
    demo: { budgets: { day: 2, perProfileDay: 1.5, perChannelDay: 0.5, perUserDay: 0, timezone: ZONE } },
    seed: async dataDir => {
      day = dayOf(Date.now(), ZONE)
      const rows: SpentRow[] = [
        { day, scope: 'all', key: 'all', spent: 1.25 },
        { day, scope: 'profile', key: 'profile:demo', spent: 1.25 },
        { day, scope: 'channel', key: `channel:${RUNTIME}/group:jazz`, spent: 1, label: 'Jazz club' },
        { day, scope: 'channel', key: `channel:${RUNTIME}/group:quiz`, spent: 0.25, label: 'Quiz night' },
        { day, scope: 'user', key: 'user:sandbox:mia', spent: 0.75, label: 'Mia' },
        { day, scope: 'user', key: 'user:sandbox:leo', spent: 0.5 },
      ]
      await mkdir(join(dataDir, 'kotodama', 'budgets'), { recursive: true })
      await atomicWrite(join(dataDir, 'kotodama', 'budgets', `${day}.json`), JSON.stringify(rows))
    },
  })

  it('shows each budget: limit or no limit, spent today, a bar, and who spent most', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-budgets-pick').click()
    const budgets = s.page.locator('.kd-budget')
    await budgets.first().waitFor()
    expect(await s.page.locator('.kd-budgets-day').innerText()).to.equal(`today, ${day}`)
    expect(await budgets.locator('.kd-budget-head b').allInnerTexts()).to.deep.equal(['All runtimes', 'Each profile', 'Each conversation', 'Each person'])
    expect(await budgets.locator('.kd-budget-figures').allInnerTexts()).to.deep.equal([
      'spent 1.25 · limit 2 (63%)', 'highest 1.25 · limit 1.5 (83%)', 'highest 1 · limit 0.5 (200%)', 'highest 0.75 · no limit',
    ])
    // within, near its limit, past it; a budget without a limit has no bar
    expect(await budgets.evaluateAll(els => els.map(e => e.className))).to.deep.equal([
      'kd-budget day within', 'kd-budget perProfileDay near', 'kd-budget perChannelDay over', 'kd-budget perUserDay free',
    ])
    expect(await budgets.first().locator('.kd-bar-fill').evaluate(e => (e as HTMLElement).style.width)).to.equal('62.5%')
    expect(await budgets.nth(3).locator('.kd-bar').count()).to.equal(0)
    // who spent most, most first: label and key
    const conversations = budgets.nth(2).locator('.kd-budget-key')
    expect(await conversations.locator('.kd-budget-who').allInnerTexts()).to.deep.equal([
      'Jazz club\nchannel:demo/sandbox:budgets:koishi/group:jazz', 'Quiz night\nchannel:demo/sandbox:budgets:koishi/group:quiz',
    ])
    expect(await conversations.evaluateAll(els => els.map(e => e.className))).to.deep.equal(['kd-budget-key over', 'kd-budget-key within'])
    expect(await budgets.nth(3).locator('.kd-budget-who').allInnerTexts()).to.deep.equal(['Mia\nuser:sandbox:mia', 'user:sandbox:leo'])
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '22-budgets.png') })

    await language(s.page, 'zh-CN')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-budgets-pick').click()
    await s.page.locator('.kd-budget').first().waitFor()
    expect(await s.page.locator('.kd-budget-head b').allInnerTexts()).to.deep.equal(['全部运行时', '每个配置', '每个会话', '每个人'])
    expect(await s.page.locator('.kd-budget.perUserDay .kd-no-limit').innerText()).to.equal('不限')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '22-budgets-zh.png') })
  })
})
