// The console's schedules view in a real browser (SPEC §25): the demo with a runtime home whose
// schedules.json holds tasks of two conversations (one repeating); each conversation a group, its
// tasks soonest first with who asked; Cancel removes one from the file. Debian's chromium driven by
// playwright-core. Screenshots test-output/browser/schedules.png and schedules-zh.png.
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import { SCHEDULES_FILE } from '../../src/schedules/file-store'
import type { Task } from '../../src/schedules/task'
import { cronOf, nextRun } from '../../src/schedules/times'
import type { Cron } from 'croner'

const BOT = 'sandbox:schedules:koishi'
const HOUR = 3_600_000

describe('console page in a real browser: the schedules view', function () {
  this.timeout(60000)
  let home: string
  let tasks: Task[]
  const s = demoInBrowser({ prefix: 'schedules', demo: { budgets: { timezone: 'Asia/Shanghai' } }, seed: async dataDir => {
    home = runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)
    await mkdir(home, { recursive: true })
    // whole hours ahead, as a person asks; the weekly task at its cron's next run
    const now = Math.ceil(Date.now() / HOUR) * HOUR
    const monday = nextRun((cronOf('0 9 * * 1', 'Asia/Shanghai') as { cron: Cron }).cron, now)!
    const mia = { platform: 'sandbox', id: 'mia', name: 'Mia' }
    const leo = { platform: 'sandbox', id: 'leo', name: 'Leo' }
    const task = (id: string, conversation: string, note: string, next: number, who = mia, cron?: string): Task =>
      ({ id, conversation, channel: conversation, note, next, who, asked: now - 20 * HOUR, rev: 0, ...cron ? { cron } : {} })
    tasks = [
      task('k3x9a', 'group:jazz', 'Remind everyone of the Friday session and ask who brings the bass.', now + 26 * HOUR),
      task('p0w7m', 'group:jazz', 'Post the week\'s plan.', monday, leo, '0 9 * * 1'),
      task('r5t2q', 'private:mia', 'Tell Mia to renew her passport.', now + 3 * HOUR),
    ]
    await writeFile(join(home, SCHEDULES_FILE), JSON.stringify({ tasks: Object.fromEntries(tasks.map(t => [t.id, t])) }))
  } })

  it('groups each conversation\'s tasks, soonest first; Cancel removes one', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-schedules-pick').click()
    const groups = s.page.locator('.kd-schedule-group')
    await groups.first().waitFor()
    expect(await groups.locator('.kd-schedule-chat').allInnerTexts()).to.deep.equal(['private:mia', 'group:jazz'])
    const jazz = groups.filter({ hasText: 'group:jazz' }).locator('.kd-schedule-task')
    // soonest first (the weekly plan may come first, on a Sunday)
    const soonest = tasks.filter(t => t.conversation === 'group:jazz').sort((a, b) => a.next - b.next).map(t => t.note)
    expect(await jazz.locator('.kd-schedule-note').allInnerTexts()).to.deep.equal(soonest)
    expect(await jazz.filter({ hasText: 'plan' }).innerText()).to.include('repeats: 0 9 * * 1').and.include('asked by Leo (leo)')
    expect(await s.page.locator('.kd-schedules-body .kd-note').first().innerText()).to.include('Asia/Shanghai')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, 'schedules.png') })
    await s.page.locator('.kd-schedule-task').filter({ hasText: 'passport' }).locator('.kd-schedule-cancel').click()
    await s.page.getByText('Task #r5t2q cancelled').waitFor()
    await s.page.locator('.kd-schedule-task').filter({ hasText: 'passport' }).waitFor({ state: 'detached' })
    expect(Object.keys(JSON.parse(await readFile(join(home, SCHEDULES_FILE), 'utf8')).tasks).sort()).to.deep.equal(['k3x9a', 'p0w7m'])
    expect(await groups.locator('.kd-schedule-chat').allInnerTexts()).to.deep.equal(['group:jazz'])
  })

  it('in Chinese', async () => {
    await language(s.page, 'zh-CN')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-schedules-pick').click()
    await s.page.locator('.kd-schedule-task').first().waitFor()
    expect(await s.page.locator('.kd-schedule-task').filter({ hasText: 'plan' }).innerText()).to.include('重复：0 9 * * 1').and.include('Leo（leo）于')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, 'schedules-zh.png') })
  })

  it('a reminder asked in the sandbox comes at its time; the transcript says a scheduled task woke the turn', async () => {
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/sandbox`)
    await s.page.getByText('添加用户', { exact: true }).click()
    const input = s.page.getByPlaceholder('发送消息到沙盒')
    await input.fill('remind me in 2 seconds: stretch')
    await input.press('Enter')
    await s.page.getByText(/I will remind you at/).waitFor()
    await s.page.getByText('⏰ stretch').waitFor({ timeout: 20000 })
    // through the activity bar: a reload would close the sandbox page's bot
    await s.page.locator('a.activity-button[href="/kotodama"]').click()
    await s.page.locator('.kd-runtime').filter({ hasNotText: BOT }).first().click()
    await s.page.locator('.kd-conversation').filter({ hasText: 'private:' }).first().click()
    const turn = s.page.locator('.kd-turn').filter({ hasText: 'a scheduled task' })
    await turn.waitFor()
    expect(await turn.innerText()).to.match(/Turn 2 · woke: a scheduled task/)
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, 'schedules-fired.png') })
  })
})
