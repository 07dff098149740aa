// The console's skills view in a real browser (SPEC §24): the demo profile with a folder of three
// skills, one of them broken; the view lists the two it may use (name, description, folder) and the
// broken one under "Left out" with why. Screenshots test-output/browser/skills.png and skills-zh.png.
import { expect } from 'chai'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import { writeSkill } from '../skills/skill-folders'

const BOT = 'sandbox:skills:koishi'

describe('console page in a real browser: the skills view', function () {
  this.timeout(60000)
  let root: string
  const skills = { dirs: [] as string[] }
  const s = demoInBrowser({ prefix: 'skills', demo: { skills }, seed: async dataDir => {
    root = await mkdtemp(join(tmpdir(), 'kotodama-browser-skills-'))
    skills.dirs.push(root)
    await writeSkill(root, 'weather', { name: 'weather', description: 'Look up the weather for a city and answer in one line, in the units people there use.' })
    await writeSkill(root, 'gif-maker', { name: 'gif-maker', description: 'Turns a short clip into a GIF when a member asks for one.' })
    await writeSkill(root, 'broken', { name: 'broken' })
    // a stored home: the runtime is listed, not running, and the view reads the folders now
    await mkdir(runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT), { recursive: true })
  } })
  after(async () => { await rm(root, { recursive: true, force: true }) })

  it('lists the skills and the one left out with why', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-skills-pick').click()
    const skill = s.page.locator('.kd-skill:not(.kd-skill-left)')
    await skill.first().waitFor()
    expect(await skill.locator('.kd-skill-name').allInnerTexts()).to.deep.equal(['gif-maker', 'weather'])
    expect(await skill.filter({ hasText: 'weather' }).innerText()).to.include('Look up the weather').and.include(join(root, 'weather'))
    expect(await s.page.locator('.kd-skill-left').innerText()).to.include(join(root, 'broken', 'SKILL.md')).and.include('the front matter has no description')
    expect(await s.page.locator('.kd-skills .kd-header').innerText()).to.include('2 skills')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, 'skills.png') })
  })

  it('in Chinese', async () => {
    await language(s.page, 'zh-CN')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-skills-pick').click()
    await s.page.locator('.kd-skill').first().waitFor()
    expect(await s.page.locator('.kd-skills .kd-heading').innerText()).to.equal('未载入')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, 'skills-zh.png') })
  })
})
