// Acts on the console page in a real browser (SPEC §23 "the console shows it struck through"): a runtime
// home the test writes, where the bot said something in the wrong chat, took it back, congratulated Alice
// with a reaction and a poke, wrote a reaction to a message the chat never had (dropped), and people
// reacted to its answer. Debian's chromium driven by playwright-core; screenshots
// test-output/browser/23-acts.png and 23-acts-zh.png.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import type { Entry } from '../../src/history/entries'

const BOT = 'sandbox:acts:koishi'
const KEY = 'group:fun'
const OOPS = 'the deploy key is in the usual place'
const UNKNOWN = 'no message #m9 in this conversation; react to an id you saw here'

async function writeHome(home: string): Promise<void> {
  const at = Date.now() - 600_000
  const fact = (id: string, t: number, who: string, content: string): Entry => ({
    type: 'fact', at: t, wake: 'name:neko',
    fact: { id, at: t, bot: BOT, channel: KEY, direct: false, user: { id: who, name: who === 'alice' ? 'Alice' : 'Bo' }, content },
  })
  const send = (t: number, turn: number, id: string, messages: string[], value: any): Entry => ({
    type: 'step', at: t, turn, usage: { model: 'main', latencyMs: 900, promptTokens: 800, completionTokens: 30 },
    messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_message', input: { messages } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'send_message', output: { type: 'json', value } }] },
    ],
  })
  const entries: Entry[] = [
    fact('m1', at, 'alice', 'I passed my exam, neko!'),
    { type: 'turn', at: at + 1000, turn: 1, reason: 'name:neko' },
    send(at + 2000, 1, 'c1', [OOPS], { ok: true, ids: ['s1'] }),
    fact('m2', at + 30_000, 'bo', 'neko, what was that?'),
    { type: 'turn', at: at + 31_000, turn: 2, reason: 'name:neko' },
    send(at + 32_000, 2, 'c2', ['<unsend id="s1"/>', 'Wrong chat, sorry. Congrats, Alice! <react emoji="🎉" to="m1"/><poke id="alice"/>', '<react emoji="👍" to="m9"/>'], {
      ok: true, ids: [null, 's2', null], dropped: [{ src: '<react emoji="👍" to="m9"/>', code: 'unknown_message', message: UNKNOWN }],
    }),
    { type: 'unsent', at: at + 32_100, id: 's1' },
    {
      type: 'fact', at: at + 95_000,
      fact: {
        id: 'reaction-1', at: at + 95_000, bot: BOT, channel: KEY, direct: false, user: { id: 'alice', name: 'Alice' }, content: 'reacted ❤️×2 to #s2',
        notice: 'reaction', reactions: { to: 's2', by: [{ id: 'alice', name: 'Alice' }, { id: 'bo', name: 'Bo' }], others: 0, emoji: [['❤️', 2]] },
      },
    },
  ]
  await mkdir(join(home, 'conversations'), { recursive: true })
  await writeFile(join(home, 'conversations', `${encodeURIComponent(KEY)}.jsonl`), entries.map(e => JSON.stringify(e)).join('\n') + '\n')
}

describe('console page in a real browser: acts', function () {
  this.timeout(60000)
  const s = demoInBrowser({ prefix: 'acts', seed: dataDir => writeHome(runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)) })

  const open = async (p: Page) => {
    await p.goto(`${s.demo.url}/kotodama`)
    await p.locator('.kd-runtime').filter({ hasText: BOT }).click()
    await p.locator('.kd-conversation').filter({ hasText: KEY }).click()
    await p.locator('.kd-act').nth(3).waitFor()
  }
  /** what the page shows of the bot's sends: the message lines and act lines, in order */
  const sendLines = (p: Page) => p.locator('.kd-send .kd-mine-line, .kd-send .kd-act').allInnerTexts()

  it('the message taken back struck through with its label; each act a line; the dropped one with its code; the capability line names the acts', async () => {
    await s.page.goto(`${s.demo.url}/kotodama`)
    await language(s.page, 'en-US')
    await open(s.page)
    const unsent = s.page.locator('.kd-bubble.mine.unsent')
    expect(await unsent.count()).to.equal(1)
    expect(await unsent.innerText()).to.equal(OOPS)
    expect(await unsent.evaluate(e => getComputedStyle(e).textDecorationLine)).to.equal('line-through')
    expect(await s.page.locator('.kd-badge.kd-unsent').innerText()).to.equal('unsent')
    expect((await sendLines(s.page)).map(l => l.replace(/\s+/g, ' ').trim())).to.deep.equal([
      `${OOPS} unsent`,
      'unsent #s1',
      'Wrong chat, sorry. Congrats, Alice!',
      'reacted 🎉 to #m1',
      'poked Alice (alice)',
      'reacted 👍 to #m9 · ✗ not made: unknown_message',
    ])
    // the raw markup is not shown as a message; the dropped act tells why on hover
    expect(await s.page.locator('.kd-bubble.mine').allInnerTexts()).to.deep.equal([OOPS, 'Wrong chat, sorry. Congrats, Alice!'])
    expect(await s.page.locator('.kd-act.dropped').getAttribute('title')).to.equal(UNKNOWN)
    expect(await s.page.locator('.kd-reaction').innerText()).to.match(/^Alice, Bo reacted ❤️×2 to #s2 · /)
    const line = await s.page.locator('.kd-runtime').filter({ hasText: BOT }).locator('.kd-capabilities').innerText()
    expect(line).to.include('✓ reactions').and.include('✗ poking').and.include('✓ unsending')
    await s.page.mouse.move(1300, 880)
    await s.page.screenshot({ path: join(SHOTS, '23-acts.png') })
  })

  it('in Chinese', async () => {
    await language(s.page, 'zh-CN')
    const zh = await s.page.context().newPage()
    await open(zh)
    expect(await zh.locator('.kd-badge.kd-unsent').innerText()).to.equal('已撤回')
    expect((await zh.locator('.kd-act').allInnerTexts()).map(l => l.replace(/\s+/g, ' ').trim())).to.deep.equal([
      '撤回了 #s1', '给 #m1 贴了 🎉', '戳了戳 Alice (alice)', '给 #m9 贴了 👍 · ✗ 未完成：unknown_message',
    ])
    const line = await zh.locator('.kd-runtime').filter({ hasText: BOT }).locator('.kd-capabilities').innerText()
    expect(line).to.include('✓ 贴表情').and.include('✗ 戳人').and.include('✓ 撤回')
    await zh.mouse.move(1300, 880)
    await zh.screenshot({ path: join(SHOTS, '23-acts-zh.png') })
    await zh.close()
  })
})
