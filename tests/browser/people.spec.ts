// The console's people view in a real browser (SPEC §21, docs/people.md "Console"): the demo with a
// runtime home holding two people's notes, one with a private section; Debian's chromium driven by
// playwright-core. Screenshot test-output/browser/15-people.png.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { personRel } from '../../src/people/people-path'
import { platformOf } from '../../src/claims/bot-id'
import { runtimeHome } from '../../src/runtime/runtime'

const BOT = 'sandbox:people:koishi'

describe('console page in a real browser: the people view', function () {
  this.timeout(60000)
  const s = demoInBrowser({ prefix: 'people', demo: { initiative: { enabled: true, activeHours: '00:00-24:00', jitter: 0 } }, seed: async dataDir => {
    const home = runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)
    const at = Date.now() - 3_600_000
    await mkdir(join(home, 'conversations'), { recursive: true })
    await writeFile(join(home, 'conversations', 'group%3Afun.jsonl'), JSON.stringify({
      type: 'fact', at, fact: { id: 'f1', at, bot: BOT, channel: 'group:fun', direct: false, user: { id: 'mia', name: 'mia' }, content: 'hi all' },
    }) + '\n')
    const local = join(home, 'local')
    const platform = platformOf(BOT)
    await mkdir(join(local, 'memory', 'people', platform), { recursive: true })
    await writeFile(join(local, personRel(platform, 'mia')), 'Mia: runs the group, likes jazz and long walks.')
    await writeFile(join(local, personRel(platform, 'mia', true)), 'told me in private she is moving to Osaka in May')
    await writeFile(join(local, personRel(platform, 'leo')), 'Leo: new here, asks about Rust.')
  } })

  it('lists the people with their notes, the private section marked', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-people-pick').click()
    const cards = s.page.locator('.kd-person')
    await cards.first().waitFor()
    expect(await cards.locator('.kd-person-id').allInnerTexts()).to.deep.equal(['leo', 'mia'])
    const mia = cards.filter({ hasText: 'mia' })
    expect(await mia.innerText()).to.include('likes jazz').and.include('moving to Osaka')
    expect(await mia.locator('.kd-private').innerText()).to.equal('private')
    expect(await cards.filter({ hasText: 'leo' }).locator('.kd-private').count()).to.equal(0)
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '15-people.png') })
  })

  it('a conversation shows its next idle wake (SPEC §21, initiative on)', async () => {
    // the sandbox page's labels as Koishi's Chinese console words them
    await language(s.page, 'zh-CN')
    const sandbox = await s.page.context().newPage()
    await sandbox.goto(`${s.demo.url}/sandbox`)
    await sandbox.getByText('添加用户', { exact: true }).click()
    await sandbox.getByText('群聊模式', { exact: true }).click()
    const input = sandbox.getByPlaceholder('发送消息到沙盒')
    await input.fill('@Koishi good night')
    await input.press('Enter')
    await sandbox.getByText('I heard: @Koishi good night').waitFor()
    // the sandbox page stays open: closing it takes its bot, and the runtime, away
    await s.page.goto(`${s.demo.url}/kotodama`)
    // the sandbox page's own bot, running now
    await s.page.locator('.kd-runtime').filter({ hasNotText: BOT }).filter({ hasText: 'sandbox:' }).first().click()
    const group = s.page.locator('.kd-conversation').filter({ hasText: /group:/ }).first()
    await group.waitFor()
    // while the turn runs the next wake counts from the message; once the bot has spoken, none is
    // scheduled until a human writes, and the row (kept current by the page) says why
    await group.locator('.kd-idle').filter({ hasText: '不会主动唤醒：最后一条是机器人自己的消息' }).waitFor()
    await group.scrollIntoViewIfNeeded()
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '16-idle-wake.png') })
    await sandbox.close()
  })
})
