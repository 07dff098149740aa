// The owner's window in a real browser (SPEC §12): the demo (Koishi, the console with its
// sandbox, config and log pages, the plugin with the offline model) on a free port, Debian's
// chromium driven by playwright-core. Screenshots go to test-output/browser/ (git ignores it).
// The model has a price, so the page shows costs (SPEC §16) beside the tokens.
import { expect } from 'chai'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Logger } from 'koishi'
import type { Browser, Page } from 'playwright-core'
import { language, needBrowser, openPage, SHOTS } from '../support/browser-page'
import WebSocket from 'ws'
import { deflateSync } from 'node:zlib'
import { startDemo, type Demo } from '../../scripts/demo'
import { freePort } from '../support/free-port'
import { stdioServerConfig } from '../support/mcp-http-server'
import { runtimeHome } from '../../src/runtime/runtime'
import { presencePart } from '../../src/presence/part'


/** A solid-colour PNG of w×h pixels. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => { let c = ~0; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (~c) >>> 0 }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => rgb[i % 3])])
  const raw = Buffer.concat(Array.from({ length: h }, () => row))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

describe('console page in a real browser', function () {
  this.timeout(60000)
  const typing = { baseDelay: 0, charPerSecond: 1000, minDelay: 50, maxDelay: 100, jitter: 0 }
  // DeepSeek-like prices per million tokens
  const price = { input: 2, cachedInput: 0.2, output: 3 }
  let demo: Demo
  let dataDir: string
  let browser: Browser
  let page: Page

  before(async function () {
    await needBrowser(this)
    // as in `npm start`: the mind's debug lines reach the log page, not the test's output
    Logger.targets[0].levels = { base: 1 }
    new Logger('kotodama').level = Logger.DEBUG
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-browser-'))
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, typing, price })
    ;({ browser, page } = await openPage())
  })

  after(async () => {
    await browser?.close()
    await demo?.stop()
    delete Logger.targets[0].levels
    delete Logger.levels.kotodama
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const shot = async (name: string) => {
    await page.mouse.move(1300, 880) // no tooltip over the page
    await page.waitForFunction(() => document.getAnimations().every(a => a.playState !== 'running'))
    await page.screenshot({ path: join(SHOTS, `${name}.png`) })
  }

  it('a message on the sandbox page is answered there', async () => {
    await page.goto(`${demo.url}/sandbox`)
    await page.getByText('添加用户', { exact: true }).click()
    const input = page.getByPlaceholder('发送消息到沙盒')
    await input.fill('hello from the browser')
    await input.press('Enter')
    await page.getByText('I heard: hello from the browser').waitFor()
    await page.getByText('This is the offline demo').waitFor()
    await shot('1-sandbox')
  })

  it('the kotodama page shows the runtime, the conversation and its transcript', async () => {
    // through the console's activity bar: a reload would close the sandbox page's bot
    await page.locator('a.activity-button[href="/kotodama"]').click()
    const runtime = page.locator('.kd-runtime').first()
    await runtime.waitFor()
    expect(await runtime.innerText()).to.include('demo')
    const conversation = page.locator('.kd-conversation').first()
    expect(await conversation.innerText()).to.match(/private:\w+/)
    // the fact, with the user's name and the wake reason
    const fact = page.locator('.kd-fact').filter({ hasText: 'hello from the browser' })
    await fact.waitFor()
    // the step: its model, and the send_message call with the delivered send
    const step = page.locator('.kd-step').first()
    await step.waitFor()
    expect(await step.innerText()).to.include('main')
    expect(await step.locator('.kd-call-name').first().innerText()).to.equal('send_message')
    const send = step.locator('.kd-send.delivered')
    expect(await send.innerText()).to.include('I heard: hello from the browser')
    expect(await send.innerText()).to.match(/delivered \(2\)/)
    // the result as the model saw it, and how the turn ended
    expect(await step.locator('.kd-result pre').innerText()).to.include('"ok": true')
    expect(await page.locator('.kd-turn').first().innerText()).to.include('ended after sending')
    // what it cost (SPEC §16): the step, the conversation (its list entry and the transcript head), today on the card
    expect(await step.locator('.kd-cost').innerText()).to.match(/^cost 0\.\d+$/)
    expect(await conversation.locator('.kd-spend').innerText()).to.match(/^cost 0\.\d+ · [\d,]+ prompt \(\d+% cached\) → \d+ completion$/)
    expect(await page.locator('.kd-header-spend').innerText()).to.match(/^1 step shown: cost 0\.\d+ · [\d,]+ prompt \(0% cached\) → \d+ completion$/)
    expect(await runtime.locator('.kd-spend-today').innerText()).to.match(/^today: cost 0\.\d+ · requests 1 · errors 0\n[\d,]+ prompt \(\d+% cached\) → \d+ completion$/)
    await shot('2-kotodama')
  })

  it('a running conversation updates live, without reloading the page', async () => {
    const second = page.locator('.kd-fact').filter({ hasText: 'second message' })
    expect(await second.count()).to.equal(0)
    // a second browser tab writes on the sandbox page while this one watches
    const other = await page.context().newPage()
    await other.goto(`${demo.url}/sandbox`)
    const input = other.getByPlaceholder('发送消息到沙盒')
    await input.fill('second message')
    await input.press('Enter')
    await other.getByText('I heard: second message').waitFor()
    await second.waitFor()
    await page.locator('.kd-send').filter({ hasText: 'I heard: second message' }).waitFor()
    await page.locator('.kd-turn').nth(1).filter({ hasText: 'ended after sending' }).waitFor()
    await other.close()
    await shot('3-kotodama-live')
  })

  it('"Wake now" starts a turn; "Reset" asks first, then the transcript is empty', async () => {
    await page.locator('.kd-wake').click()
    const woken = page.locator('.kd-turn').filter({ hasText: 'woke: the owner, from the console' })
    await woken.waitFor()
    await woken.filter({ hasText: 'ended' }).waitFor()
    await page.locator('.kd-note').filter({ hasText: '[wake: the owner, from the console]' }).waitFor()
    // the newest turn is in view: the transcript follows it while it runs
    expect(await woken.isVisible()).to.equal(true)
    await page.waitForFunction(() => {
      const t = document.querySelector('.kd-transcript')
      return !!t && t.scrollHeight - t.scrollTop - t.clientHeight < 40
    })
    await shot('4-kotodama-woken')
    await page.locator('.kd-reset').click()
    const dialog = page.locator('.el-message-box')
    await dialog.getByText('nothing is deleted').waitFor()
    await shot('5-reset-confirm')
    await dialog.getByRole('button', { name: 'Reset' }).click()
    await page.getByText('The history was moved aside.').waitFor()
    await page.locator('.kd-fact').first().waitFor({ state: 'detached' })
    expect(await page.locator('.kd-step').count()).to.equal(0)
  })

  it('in the group mode of the sandbox, @Koishi wakes it; the page lists the group conversation', async () => {
    const sandbox = await page.context().newPage()
    await sandbox.goto(`${demo.url}/sandbox`)
    await sandbox.getByText('群聊模式', { exact: true }).click()
    const input = sandbox.getByPlaceholder('发送消息到沙盒')
    await input.fill('just chatting')
    await input.press('Enter')
    await input.fill('@Koishi are you there?')
    await input.press('Enter')
    await sandbox.getByText('I heard: @Koishi are you there?').waitFor()
    await sandbox.mouse.move(1300, 880)
    await sandbox.screenshot({ path: join(SHOTS, '6-sandbox-group.png') })
    const group = page.locator('.kd-conversation').filter({ hasText: /group:/ })
    await group.waitFor()
    await group.click()
    await page.locator('.kd-fact').filter({ hasText: 'just chatting' }).waitFor()
    const woke = page.locator('.kd-fact').filter({ hasText: '@Koishi are you there?' })
    expect(await woke.locator('.kd-badge.wake').innerText()).to.equal('wakes: a mention')
    // the message that did not mention it is a fact that woke nothing
    expect(await page.locator('.kd-fact').filter({ hasText: 'just chatting' }).locator('.kd-badge.wake').count()).to.equal(0)
    await page.locator('.kd-send.delivered').filter({ hasText: 'I heard: @Koishi are you there?' }).waitFor()
    // the sandbox tells the group that Alice joined: a notice (SPEC §19), shown as a line of its own
    expect(await page.locator('.kd-notice').first().innerText()).to.match(/joined the group/)
    await sandbox.close()
    await shot('7-kotodama-group')
  })

  it('an image in a message is a thumbnail from the runtime\'s assets', async () => {
    // the sandbox page escapes markup, so the image comes as another sandbox user would send it
    const ws = new WebSocket(demo.url.replace(/^http/, 'ws') + '/status')
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
    try {
      const image = `data:image/png;base64,${png(96, 64, [230, 120, 40]).toString('base64')}`
      ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:photos', 'bob', '@bob', `look <img src="${image}"/>`], id: 1 }))
      const runtime = page.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' })
      await runtime.click()
      await page.locator('.kd-conversation').filter({ hasText: 'private:bob' }).click()
      const thumb = page.locator('.kd-fact .kd-thumb img')
      await thumb.waitFor()
      expect(await thumb.getAttribute('src')).to.match(/^data:image\/png;base64,/)
      expect(await thumb.getAttribute('title')).to.match(/^asset:\/\//)
      expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).to.equal(96)
      await page.locator('.kd-send.delivered').first().waitFor()
      await shot('8-kotodama-image')
      // SPEC §19: the runtime's capability line, and a paused conversation's badge (the pause kotodama.pause makes)
      const photos = (await demo.app.kotodama.list()).find(r => r.bot === 'sandbox:photos:koishi')!
      const now = Date.now()
      await photos.part(presencePart)!.presence.mute('private:bob', now + 30 * 60_000, 'owner', now)
      const badge = page.locator('.kd-conversation').filter({ hasText: 'private:bob' }).locator('.kd-muted-until')
      await badge.waitFor()
      expect(await badge.innerText()).to.match(/^paused until /)
      const line = await runtime.locator('.kd-capabilities').innerText()
      expect(line).to.include("Koishi's sandbox").and.include('✓ proactive messages').and.include('✗ history pull')
      expect(await runtime.locator('.kd-feature.off').first().getAttribute('title')).to.equal('sandbox: no history to pull')
      await shot('8b-kotodama-paused')
      await photos.part(presencePart)!.presence.mute('private:bob', 0, 'owner', Date.now())
    } finally {
      ws.terminate()
    }
  })

  it('the demo shows the config page with the plugin form and the log page', async () => {
    await page.locator('a.activity-button[href="/plugins/"]').click()
    await page.locator('.label[title="kotodama"]').click()
    // the plugin's own form: its sections and fields, from its Config schema
    await page.getByText('profiles', { exact: true }).first().waitFor()
    await shot('9-config')
    // the parts bring their sections with their texts (issue 37): the sticker folder's field, as written
    const stickersDir = page.getByText('<name>.png|gif|jpg|webp', { exact: true }).first()
    await stickersDir.scrollIntoViewIfNeeded()
    expect(await page.getByText(/^Idle wakes: the mind picks a conversation gone quiet up again/).count()).to.equal(1)
    await shot('9b-config-parts')
    await page.locator('a.activity-button[href="/logs"]').click()
    // the plugin's own lines: here, the runtime that started with the first message
    await page.getByText(/profile demo runs on sandbox:/).first().waitFor()
    await shot('10-logs')
  })

  it('the page follows the console\'s language: zh-CN', async () => {
    await page.evaluate(() => {
      const config = JSON.parse(localStorage.getItem('koishi.console.config') ?? '{}')
      localStorage.setItem('koishi.console.config', JSON.stringify({ ...config, locale: 'zh-CN' }))
    })
    // a second tab: this one keeps the sandbox bot of the chats above
    const zh = await page.context().newPage()
    await zh.goto(`${demo.url}/kotodama`)
    await zh.getByText('心智', { exact: true }).waitFor()
    await zh.locator('.kd-conversation').filter({ hasText: /group:/ }).click()
    await zh.locator('.kd-turn').filter({ hasText: '第 1 轮' }).filter({ hasText: '唤醒原因：被提及' }).filter({ hasText: '发送后结束' }).waitFor()
    expect(await zh.locator('.kd-send-status').first().innerText()).to.include('已送达')
    // the console's own wake-up, in the console's language too (issue 21)
    await zh.locator('.kd-conversation').filter({ hasText: /private:/ }).first().click()
    await zh.locator('.kd-wake').click()
    await zh.locator('.kd-turn').filter({ hasText: '唤醒原因：主人从控制台唤醒' }).waitFor()
    expect(await zh.locator('.kd-turn').allInnerTexts()).to.not.include.members(['the owner, from the console'])
    await zh.screenshot({ path: join(SHOTS, '11b-kotodama-zh-woken.png') })
    await zh.locator('.kd-conversation').filter({ hasText: /group:/ }).click()
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '11-kotodama-zh.png') })
    await zh.close()
  })

  it('after the demo restarts: runtimes are listed as not running, a stored conversation is read from disk; the MCP servers block', async () => {
    await demo.stop()
    demo = await startDemo({
      port: await freePort(), offline: true, dataDir, typing,
      mcpServers: [stdioServerConfig('notes'), stdioServerConfig('search', { command: join(dataDir, 'no-such-server') })], price,
    })
    await page.goto(`${demo.url}/kotodama`)
    const photos = page.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' })
    await photos.waitFor()
    expect(await photos.locator('.kd-not-running').innerText()).to.equal('not running')
    await photos.click()
    const conversation = page.locator('.kd-conversation').filter({ hasText: 'private:bob' })
    expect(await conversation.locator('.kd-stored').innerText()).to.equal('on disk')
    await conversation.click()
    await page.locator('.kd-stored-note').waitFor()
    // the transcript and its thumbnail, from the home of a runtime that did not start
    await page.locator('.kd-fact').filter({ hasText: 'look' }).waitFor()
    await page.locator('.kd-fact .kd-thumb img').waitFor()
    await page.locator('.kd-send.delivered').first().waitFor()
    await page.locator('.kd-mcp-server').filter({ hasText: 'notes' }).filter({ hasText: 'ready' }).waitFor()
    await page.locator('.kd-mcp-server').filter({ hasText: 'search' }).filter({ hasText: 'retrying' }).waitFor()
    expect(await demo.app.kotodama.list()).to.deep.equal([])
    await shot('12-kotodama-restarted')
    // the same in zh-CN
    await page.evaluate(() => {
      const config = JSON.parse(localStorage.getItem('koishi.console.config') ?? '{}')
      localStorage.setItem('koishi.console.config', JSON.stringify({ ...config, locale: 'zh-CN' }))
    })
    const zh = await page.context().newPage()
    await zh.goto(`${demo.url}/kotodama`)
    await zh.getByText('MCP 服务器', { exact: true }).waitFor()
    await zh.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' }).click()
    await zh.locator('.kd-conversation .kd-stored').filter({ hasText: '在磁盘上' }).first().waitFor()
    await zh.locator('.kd-mcp-server').filter({ hasText: '就绪' }).waitFor()
    await zh.locator('.kd-fact .kd-thumb img').waitFor()
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '13-kotodama-restarted-zh.png') })
    await zh.close()
  })

  it('the cost per day and a failed model call on its turn, in en-US and zh-CN', async () => {
    // a runtime's last days from its daily files, and a turn whose model call failed, as the turn loop records them
    const home = runtimeHome(join(dataDir, 'kotodama'), 'demo', 'sandbox:photos:koishi')
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10)
    await writeFile(join(home, 'usage', `${day(1)}.json`), JSON.stringify({ day: day(1), models: { main: { requests: 41, errors: 2, promptTokens: 182_400, cachedTokens: 151_000, completionTokens: 6_120, cost: 0.1175 } } }))
    await writeFile(join(home, 'usage', `${day(2)}.json`), JSON.stringify({ day: day(2), models: { main: { requests: 12, errors: 0, promptTokens: 40_210, completionTokens: 1_800 } } }))
    const at = Date.now() - 60_000
    const error = 'HTTP 503 from http://127.0.0.1:8000/v1/chat/completions: {"error":{"message":"upstream connect error or disconnect/reset before headers","type":"server_error"}}'
    await writeFile(join(home, 'conversations', 'private%3Aerin.jsonl'), [
      { type: 'fact', at, wake: 'direct', fact: { id: 'e1', at, bot: 'sandbox:photos:koishi', channel: 'private:erin', direct: true, user: { id: 'erin', name: 'erin' }, content: 'are you there?' } },
      { type: 'turn', at: at + 1, turn: 1, reason: 'direct' },
      { type: 'step', at: at + 900, turn: 1, usage: { model: 'main', latencyMs: 880, promptTokens: 3_210, cachedTokens: 2_560, cacheWriteTokens: 400, completionTokens: 42 }, messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'erin asks if I am here; let me check my notes first' }, { type: 'tool-call', toolCallId: 'r1', toolName: 'read', input: { url: 'local://memory/people/erin.md' } }] }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r1', toolName: 'read', output: { type: 'text', value: 'likes tea' } }] }] },
      { type: 'failure', at: at + 4000, turn: 1, model: 'main', error, latencyMs: 3050 },
    ].map(e => JSON.stringify(e)).join('\n') + '\n')

    // the test before switched the console to zh-CN: back to en-US first
    await language(page, 'en-US')
    await page.goto(`${demo.url}/kotodama`)
    const photos = page.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' })
    await photos.click()
    const days = photos.locator('.kd-days')
    await days.waitFor()
    expect(await days.locator('tbody tr').count()).to.equal(3)
    expect(await days.locator('tbody tr').nth(1).innerText()).to.match(/182\.4K\s+83%\s+6,120\s+0\.12/)
    // a day without a price has no cost, not 0
    expect(await days.locator('tbody tr').nth(2).locator('td').last().innerText()).to.equal('—')
    await page.locator('.kd-conversation').filter({ hasText: 'private:erin' }).click()
    const failure = page.locator('.kd-failure')
    await failure.waitFor()
    expect(await failure.innerText()).to.include('model call failed')
    expect(await failure.innerText()).to.include('upstream connect error')
    expect(await failure.locator('b').evaluate(el => getComputedStyle(el).color)).to.equal('rgb(221, 51, 51)')
    const turn = page.locator('.kd-turn').filter({ hasText: 'Turn 1' })
    expect(await turn.locator('.kd-end.error').innerText()).to.match(/^ended: the model call failed: HTTP 503/)
    expect(await page.locator('.kd-step .kd-cost').innerText()).to.equal('cost 0.0019')
    // an Anthropic-style step: the prompt tokens read from and written to the cache (SPEC §11.1)
    expect(await page.locator('.kd-step .kd-meta').innerText()).to.include('3210 (2560 cached, 400 written to the cache) → 42 tokens')
    expect(await page.locator('.kd-header-spend').innerText()).to.equal('1 step shown: cost 0.0019 · 3,210 prompt (80% cached) → 42 completion')
    // the reasoning stays collapsed
    expect(await page.locator('.kd-reasoning').getAttribute('open')).to.equal(null)
    await shot('14-kotodama-costs')

    await language(page, 'zh-CN')
    const zh = await page.context().newPage()
    await zh.goto(`${demo.url}/kotodama`)
    await zh.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' }).click()
    await zh.locator('.kd-days caption').filter({ hasText: '最近几天' }).waitFor()
    await zh.locator('.kd-conversation').filter({ hasText: 'private:erin' }).click()
    await zh.locator('.kd-failure').filter({ hasText: '模型调用失败' }).waitFor()
    expect(await zh.locator('.kd-turn .kd-end.error').innerText()).to.match(/^结束：模型调用失败：HTTP 503/)
    expect(await zh.locator('.kd-header-spend').innerText()).to.equal('这里显示的 1 步：费用 0.0019 · 输入 3,210（缓存命中 80%）→ 输出 42')
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '15-kotodama-costs-zh.png') })
    await zh.close()
  })
  it('why a wake was held, merged, deferred, late or declined (SPEC §15)', async () => {
    const home = runtimeHome(join(dataDir, 'kotodama'), 'demo', 'sandbox:photos:koishi')
    const at = Date.now() - 120_000
    const fact = (id: string, user: string, content: string, t: number, extra: object = {}) => ({ type: 'fact', at: t, ...extra, fact: { id, at: t, bot: 'sandbox:photos:koishi', channel: 'group:busy', direct: false, user: { id: user, name: user }, content } })
    await writeFile(join(home, 'conversations', 'group%3Abusy.jsonl'), [
      fact('b1', 'gina', 'this was written an hour ago', at - 3_600_000, { held: 'stale' }),
      fact('b2', 'relaybot', '@Koishi ping from another bot', at, { held: 'bot' }),
      fact('b3', 'gina', '@Koishi are you around', at + 100, { wake: 'mention' }),
      fact('b4', 'hugo', 'koto, can you help too', at + 700, { wake: 'name:koto' }),
      { type: 'turn', at: at + 2200, turn: 1, reason: 'mention', merged: 2, waitedMs: 2100 },
      { type: 'step', at: at + 2200, turn: 1, usage: { model: 'main', latencyMs: 400 }, loaded: ['calendar_create_event'], messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 's1', toolName: 'send_message', input: { messages: ['here, both of you'] } }] }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 's1', toolName: 'send_message', output: { type: 'json', value: { ok: true, ids: ['x'] } } }] }] },
      fact('b5', 'gina', 'anyone want pizza later', at + 30_000),
      { type: 'declined', at: at + 31_000, reason: 'keyword:pizza', why: 'the judge said "no"' },
      { type: 'turn', at: at + 90_000, turn: 2, reason: 'wait:time', late: true },
      { type: 'note', at: at + 90_000, kind: 'wake', text: '[wake: the 60 s you chose to wait have passed (late)]' },
    ].map(e => JSON.stringify(e)).join('\n') + '\n')
    await language(page, 'en-US')
    await page.goto(`${demo.url}/kotodama`)
    await page.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' }).click()
    await page.locator('.kd-conversation').filter({ hasText: 'group:busy' }).click()
    await page.locator('.kd-badge.held').filter({ hasText: 'not woken (old: a backlog)' }).waitFor()
    expect(await page.locator('.kd-badge.held').allInnerTexts()).to.deep.equal(['not woken (old: a backlog)', 'not woken (another bot)'])
    expect(await page.locator('.kd-fact .kd-badge.wake').allInnerTexts()).to.deep.equal(['wakes: a mention', 'wakes: its name "koto"'])
    expect(await page.locator('.kd-turn').first().innerText()).to.include('2 messages merged').and.include('waited 2.1 s')
    expect(await page.locator('.kd-declined').innerText()).to.include('not woken by the keyword "pizza": the judge said "no"')
    expect(await page.locator('.kd-turn').nth(1).innerText()).to.include('(late: kotodama was not running)')
    // a tool the turn found with tool_search (SPEC §18)
    expect(await page.locator('.kd-step .kd-loaded').innerText()).to.include('calendar_create_event')
    await shot('19-kotodama-attention')
  })

  it('the step shows as soon as the model answered, each message as it is delivered (issue 21)', async () => {
    await demo.stop()
    // slow typing: the page must show the step while the messages are still being typed out
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, typing: { ...typing, minDelay: 2500, maxDelay: 2500 }, price })
    await language(page, 'en-US')
    await page.goto(`${demo.url}/sandbox`)
    await page.getByText('添加用户', { exact: true }).click()
    await page.getByPlaceholder('发送消息到沙盒').fill('are you typing?')
    await page.getByPlaceholder('发送消息到沙盒').press('Enter')
    await page.locator('a.activity-button[href="/kotodama"]').click()
    await page.locator('.kd-runtime').filter({ hasText: /sandbox:\w+:koishi/ }).filter({ hasNotText: 'not running' }).first().click()
    await page.locator('.kd-conversation').filter({ hasText: 'are you typing?' }).click()
    const live = page.locator('.kd-step.live')
    await live.waitFor()
    expect(await live.locator('.kd-send-status').innerText()).to.match(/typing… [01] of 2 delivered/)
    expect(await live.innerText()).to.include('its calls are running')
    await shot('16-kotodama-live-step')
    await page.locator('.kd-step .kd-send.delivered').filter({ hasText: 'are you typing?' }).waitFor({ timeout: 10000 })
    expect(await page.locator('.kd-step.live').count()).to.equal(0)
  })

  it('a profile that fails its config check: shown as not started with the log\'s reason, its stored conversations still readable (issue 21)', async () => {
    await demo.stop()
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, typing, price, profileModel: 'nope' })
    await language(page, 'en-US')
    await page.goto(`${demo.url}/kotodama`)
    const photos = page.locator('.kd-runtime').filter({ hasText: 'sandbox:photos:koishi' })
    await photos.waitFor()
    expect(await photos.locator('.kd-not-started').innerText()).to.equal('not started')
    expect(await photos.locator('.kd-problem').first().innerText()).to.equal('config profiles[0].model names unknown model "nope" (known: main)')
    await photos.click()
    await page.locator('.kd-conversation').filter({ hasText: 'private:bob' }).click()
    await page.locator('.kd-fact').filter({ hasText: 'look' }).waitFor()
    await shot('17-kotodama-not-started')
    await language(page, 'zh-CN')
    const zh = await page.context().newPage()
    await zh.goto(`${demo.url}/kotodama`)
    await zh.locator('.kd-runtime .kd-not-started').filter({ hasText: '未启动' }).first().waitFor()
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '18-kotodama-not-started-zh.png') })
    await zh.close()
  })
})
