// The console's trash view in a real browser (SPEC §22, docs/memory.md "The trash"): the demo with a
// runtime home whose trash holds a removed core.md, an overwritten note and a private chat's file;
// Restore puts one back. Debian's chromium driven by playwright-core. Screenshot
// test-output/browser/19-trash.png.
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import { Trash } from '../../src/memory/trash/trash'
import { DEFAULT_MEMORY } from '../../src/memory/config'
import type { Clock } from '../../src/util/clock'
import { systemClock } from '../../src/util/clock'

const BOT = 'sandbox:trash:koishi'
const HOUR = 3_600_000

describe('console page in a real browser: the trash view', function () {
  this.timeout(60000)
  let home: string
  const s = demoInBrowser({ prefix: 'trash', seed: async dataDir => {
    home = runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)
    await mkdir(join(home, 'local', 'memory'), { recursive: true })
    await writeFile(join(home, 'local', 'memory', 'groups.md'), 'fun: the jazz group\n')
    // entries of the last hours, oldest first
    let at = Date.now() - 5 * HOUR
    const clock: Clock = { ...systemClock, now: () => (at += HOUR) }
    const trash = new Trash(join(home, 'trash'), () => DEFAULT_MEMORY, clock)
    const keep = (rel: string, text: string, why: 'removed' | 'overwritten', conversation: string, privateTo?: string) =>
      trash.keep({ data: Buffer.from(text) }, Buffer.byteLength(text), { rel, why, conversation, ...privateTo ? { privateTo } : {} })
    await keep('memory/groups.md', 'fun: the jazz group, Friday sessions\n', 'overwritten', 'group:fun')
    await keep('memory/plans.md', 'Mia moves to Osaka in May\n', 'removed', 'private:mia', 'private:mia')
    await keep('memory/core.md', 'I am the demo bot.\nPromise: remind the group of Friday.\n', 'removed', 'group:fun')
  } })

  it('lists what was removed or overwritten, newest first; Restore puts core.md back', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await s.page.goto(`${s.demo.url}/kotodama`)
    await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await s.page.locator('.kd-trash-pick').click()
    const items = s.page.locator('.kd-trash-item')
    await items.first().waitFor()
    expect(await items.locator('.kd-trash-url').allInnerTexts()).to.deep.equal([
      'local://memory/core.md', 'local://memory/plans.md', 'local://memory/groups.md',
    ])
    const plans = items.filter({ hasText: 'plans.md' })
    expect(await plans.locator('.kd-private').innerText()).to.equal('private')
    expect(await plans.innerText()).to.include('removed').and.include('from private:mia')
    expect(await items.filter({ hasText: 'groups.md' }).innerText()).to.include('overwritten').and.include('from group:fun')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '19-trash.png') })
    await items.filter({ hasText: 'core.md' }).locator('.kd-restore').click()
    await s.page.getByText('Restored as local://memory/core.md').waitFor()
    await s.page.locator('.kd-trash-item').filter({ hasText: 'core.md' }).waitFor({ state: 'detached' })
    expect(await readFile(join(home, 'local', 'memory', 'core.md'), 'utf8')).to.equal('I am the demo bot.\nPromise: remind the group of Friday.\n')
    // a taken path: beside it
    await s.page.locator('.kd-trash-item').filter({ hasText: 'groups.md' }).locator('.kd-restore').click()
    await s.page.getByText('Restored as local://memory/groups.restored.md').waitFor()
    await s.page.screenshot({ path: join(SHOTS, '19-trash-restored.png') })
  })
})
