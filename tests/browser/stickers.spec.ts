// The console's sticker view in a real browser (SPEC §19, §12; docs/stickers.md "Console"): the
// demo with stickers on, a runtime home holding a few drawn stickers (one learned and waiting, one
// banned), Debian's chromium driven by playwright-core. The owner approves the waiting one;
// screenshots test-output/browser/14-stickers.png and 14-stickers-zh.png.
import { expect } from 'chai'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { createHash } from 'node:crypto'
import { Logger } from 'koishi'
import type { Browser, Page } from 'playwright-core'
import { language, needBrowser, openPage, SHOTS } from '../support/browser-page'
import { startDemo, type Demo } from '../../scripts/demo'
import { runtimeHome } from '../../src/runtime/runtime'
import { STATE_FILE } from '../../src/stickers/state-book'
import { freePort } from '../support/free-port'

const BOT = 'sandbox:stickers:koishi'

/** A w×w RGBA PNG drawn by `paint(x, y)` → [r, g, b, a]. */
function drawn(w: number, paint: (x: number, y: number) => [number, number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body) >>> 0, body.length + 4)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(w, 4)
  ihdr.set([8, 6, 0, 0, 0], 8)
  const rows = Array.from({ length: w }, (_, y) => Buffer.from([0, ...Array.from({ length: w }, (_, x) => paint(x, y)).flat()]))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}

/** A round face of `colour`: eyes, and a mouth smiling (1), flat (0) or sad (-1). */
function face(colour: [number, number, number], mood: number): Buffer {
  const w = 96
  const c = w / 2
  return drawn(w, (x, y) => {
    const d = Math.hypot(x - c, y - c)
    if (d > 44) return [0, 0, 0, 0]
    if (d > 41) return [60, 40, 20, 255]
    const eye = Math.hypot(x - c + 15, y - 38) < 6 || Math.hypot(x - c - 15, y - 38) < 6
    const mouthY = 64 + mood * 0.012 * (x - c) ** 2 * -1 + mood * 6
    const mouth = Math.abs(x - c) < 20 && Math.abs(y - mouthY) < 2.5
    return eye || mouth ? [50, 30, 20, 255] : [...colour, 255]
  })
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe('console page in a real browser: the sticker view', function () {
  this.timeout(60000)
  let demo: Demo
  let dataDir: string
  let browser: Browser
  let page: Page
  let folder: string

  before(async function () {
    await needBrowser(this)
    Logger.targets[0].levels = { base: 1 }
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-browser-stickers-'))
    // a home with one stored conversation (so the runtime is listed) and its sticker folder
    const home = runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)
    folder = join(home, 'local', 'stickers')
    await mkdir(join(home, 'conversations'), { recursive: true })
    await mkdir(folder, { recursive: true })
    const at = Date.now() - 3_600_000
    await writeFile(join(home, 'conversations', 'group%3Afun.jsonl'), JSON.stringify({
      type: 'fact', at, fact: { id: 'f1', at, bot: BOT, channel: 'group:fun', direct: false, user: { id: 'mia', name: 'mia' }, content: 'hi all' },
    }) + '\n')
    const stickers: [string, Buffer, object][] = [
      ['cat-happy', face([250, 205, 70], 1), { description: 'A yellow face grinning: glad, that is great.', tags: ['happy', '开心', 'great'] }],
      ['meh', face([170, 200, 230], 0), { description: 'A blue face, flat mouth: unimpressed.', tags: ['meh', '无语'] }],
      ['learned-5ad0c0de', face([150, 220, 140], -1), { description: 'A green face frowning: sorry to hear that.', tags: ['sad', '难过', 'sorry'] }],
      ['ugly-ad', face([230, 120, 200], 1), { description: 'A pink face with an advert.', tags: ['ad'] }],
    ]
    const records: Record<string, object> = {}
    for (const [name, data, label] of stickers) {
      await writeFile(join(folder, `${name}.png`), data)
      await writeFile(join(folder, `${name}.json`), JSON.stringify(label))
    }
    records[sha(stickers[0][1])] = { name: 'cat-happy', uses: 12, lastUsed: Date.now() - 600_000 }
    records[sha(stickers[2][1])] = { name: 'learned-5ad0c0de', state: 'waiting', source: { kind: 'learned', channel: 'group:fun', user: 'mia', at: at + 60_000 } }
    records[sha(stickers[3][1])] = { name: 'ugly-ad', state: 'banned', source: { kind: 'learned', channel: 'group:fun', user: 'spam', at } }
    await writeFile(join(folder, STATE_FILE), JSON.stringify({ stickers: records }))
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, stickers: { enabled: true, learn: { enabled: true, groups: ['group:fun'] } } })
    ;({ browser, page } = await openPage())
  })

  after(async () => {
    await browser?.close()
    await demo?.stop()
    delete Logger.targets[0].levels
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('lists the stickers with their images, labels, uses and sources; the owner approves the waiting one', async () => {
    await page.goto(`${demo.url}/kotodama`)
    await language(page, 'en-US')
    await page.goto(`${demo.url}/kotodama`)
    await page.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await page.locator('.kd-stickers-pick').click()
    const cards = page.locator('.kd-sticker')
    await cards.first().waitFor()
    expect(await cards.evaluateAll(els => els.map(e => e.getAttribute('data-name')))).to.deep.equal(['learned-5ad0c0de', 'cat-happy', 'meh', 'ugly-ad'])
    await page.waitForFunction(() => [...document.querySelectorAll('.kd-sticker-image img')].filter(i => (i as HTMLImageElement).complete).length === 4)
    const waiting = cards.filter({ hasText: 'learned-5ad0c0de' })
    expect(await waiting.locator('.kd-state').innerText()).to.equal('waiting for review')
    expect(await waiting.locator('.kd-sticker-source').innerText()).to.match(/^learned in group:fun from mia, /)
    expect(await cards.filter({ hasText: 'cat-happy' }).innerText()).to.include('sent 12 times').and.include('added by the owner')
    expect(await page.locator('.kd-sticker-counts').innerText()).to.equal('4 stickers · 1 waiting · 1 banned')
    await page.mouse.move(1300, 880)
    await page.screenshot({ path: join(SHOTS, '14-stickers-before.png') })

    await waiting.locator('.kd-approve').click()
    await waiting.locator('.kd-state').filter({ hasText: 'approved' }).waitFor()
    const state = JSON.parse(await readFile(join(folder, STATE_FILE), 'utf8')).stickers
    expect(Object.values<any>(state).find(r => r.name === 'learned-5ad0c0de')).to.include({ state: 'approved' })
    // the label editor
    const meh = cards.filter({ hasText: 'meh' })
    await meh.locator('.kd-edit').click()
    await meh.locator('.kd-edit-tags input').fill('meh, 无语, whatever')
    await meh.locator('.kd-save').click()
    await meh.locator('.kd-tag').filter({ hasText: 'whatever' }).waitFor()
    await page.mouse.move(1300, 880)
    await page.screenshot({ path: join(SHOTS, '14-stickers.png') })
  })

  it('in Chinese', async () => {
    await language(page, 'zh-CN')
    const zh = await page.context().newPage()
    await zh.goto(`${demo.url}/kotodama`)
    await zh.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await zh.locator('.kd-stickers-pick').filter({ hasText: '表情包' }).click()
    await zh.locator('.kd-sticker .kd-state').filter({ hasText: '已禁用' }).waitFor()
    await zh.waitForFunction(() => [...document.querySelectorAll('.kd-sticker-image img')].filter(i => (i as HTMLImageElement).complete).length === 4)
    expect(await zh.locator('.kd-sticker').filter({ hasText: 'cat-happy' }).innerText()).to.include('主人添加')
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '14-stickers-zh.png') })
    await zh.close()
  })
})
