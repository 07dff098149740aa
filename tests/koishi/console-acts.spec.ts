// Acts on the console page (SPEC §23 "the console shows it struck through"): the transcript the page
// reads through `kotodama/transcript` marks a message the bot took back, shows a send's acts one by
// one (a message of acts only has no words), a dropped act with its code, and the capability line of
// `kotodama/runtimes` names the acts. Through the real koishi-plugin-adapter-onebot against the fake
// NapCat, whose delete_msg, set_msg_emoji_like and group_poke follow NapCatQQ af07479 (fakes/onebot/acts.ts).
import { expect } from 'chai'
import type { Context } from 'koishi'
import { registerConsole } from '../../src/koishi/console'
import type { CallItem, RuntimeSummary, Transcript } from '../../src/console-data/types'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call, FAST_TYPING } from '../support/onebot-harness'
import { captureListeners } from '../support/console-listeners'

const GROUP = 555
const ALICE = 2001

/** the page's listeners, on a stand-in console that also takes the page's entry */
function pageListeners(app: Context) {
  return captureListeners(app, ctx => registerConsole(new Proxy(ctx, {
    get: (t, k) => k === 'console' ? { ...(t as any).console, addEntry: () => ({ id: 'kotodama' }), broadcast: () => {} } : Reflect.get(t, k),
  })))
}

describe('console: the acts the mind made (SPEC §23)', function () {
  this.timeout(20000)
  let h: OneBotHarness
  afterEach(() => h?.stop())

  const answer = (...calls: string[][]) => {
    h.server.script({ toolCalls: calls.map(messages => call('send_message', { messages, continue: true })) }, { toolCalls: [call('finish', {})] })
  }
  const mention = (text: string) => h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(10001), seg.text(text)] })
  const sends = (t: Transcript) => t.items.flatMap(i => i.kind === 'step' ? i.calls : []).filter((c: CallItem) => c.tool === 'send_message').map(c => c.send!)

  it('a message taken back is marked unsent; an act-only message shows its acts, no words; a dropped act its code', async () => {
    h = await OneBotHarness.start({ profile: { typing: FAST_TYPING } })
    const page = pageListeners(h.app as unknown as Context)
    const m = await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', text: 'I passed my exam' })
    answer(['oops, wrong chat'])
    await mention(' hi')
    await h.server.waitForRequests(2)
    await h.settled()
    const mine = String(h.napcat.sent[0].message_id)
    const huge = '😀'.repeat(500)
    answer([`<unsend id="${mine}"/>`, `congrats! <react emoji="👍" to="${m.message_id}"/><poke id="${ALICE}"/>`, `<react emoji="${huge}" to="${m.message_id}"/>`])
    await mention(' what was that?')
    await h.server.waitForRequests(4)
    await h.settled()
    expect(h.napcat.deleted).to.deep.equal([Number(mine)])

    const [runtime] = await h.app.kotodama.list()
    const t: Transcript = await page.send('kotodama/transcript', runtime.profile.id, runtime.bot, `group:${GROUP}`)
    const [first, second] = sends(t)
    // struck through on the page: its words as sent, without the mark the mind reads
    expect(first).to.deep.include({ messages: ['oops, wrong chat'], unsent: [0], delivered: true })
    expect(second.messages).to.deep.equal(['', 'congrats!', ''])
    expect(second).to.not.have.property('unsent')
    expect(second.acts).to.deep.equal([
      { message: 0, act: 'unsend', id: mine },
      { message: 1, act: 'react', emoji: '👍', to: String(m.message_id) },
      { message: 1, act: 'poke', id: String(ALICE), name: 'Alice' },
      {
        message: 2, act: 'react', emoji: '😀'.repeat(23) + '…', to: String(m.message_id),
        dropped: { code: 'unknown_emoji', message: second.acts![3].dropped!.message },
      },
    ])
    expect(second.acts![3].dropped!.message).to.match(/emoji/)
  })

  it('the capability line names the acts OneBot has', async () => {
    h = await OneBotHarness.start()
    const page = pageListeners(h.app as unknown as Context)
    await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', text: 'hello' })
    await h.until(async () => (await h.app.kotodama.list()).length > 0)
    const [summary]: RuntimeSummary[] = await page.send('kotodama/runtimes')
    const features = new Map(summary.capabilities!.features.map(f => [f.name, f.on]))
    expect([features.get('react'), features.get('pokeOut'), features.get('unsend')]).to.deep.equal([true, true, true])
  })
})
