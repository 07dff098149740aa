// Schedules through the real OneBot adapter and the fake NapCat (SPEC §25, §22): a member asks, the
// scripted model calls `schedule`, the task fires as a turn of its group whose note names it, the
// asker pays for that turn; another member's cancel is NotAllowed, the bot owner's and the asker's go
// through; a program asking for 1,000 tasks gets 20 and TooMany for the rest.
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastToolValues, lastUserText, toolResultsOf } from '../support/fake-openai'
import { localTime } from '../../src/schedules/times'

const GROUP = 555
const ALICE = 2001
const BOB = 2002
/** trust.owners: the bot owner's, a plain member of the group */
const OWNER = 3001
const PRICE = { input: 1000, output: 1000 }
const costing = (cost: number) => ({ usage: { prompt_tokens: Math.round(cost * 1000), completion_tokens: 0 } })

describe('schedules through the OneBot adapter (SPEC §25)', function () {
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}): Promise<void> {
    h = await OneBotHarness.start({
      profile, model: { price: PRICE },
      config: { trust: { owners: [`onebot:${OWNER}`] }, budgets: { timezone: 'Asia/Shanghai', perUserDay: 100 } },
    })
    h.napcat.member(GROUP, ALICE, { nickname: 'alice' })
    h.napcat.member(GROUP, BOB, { nickname: 'bob' })
  }

  /** `user` writes to the bot; the model's `calls` run, then it finishes; the results of the calls as the model read them */
  async function asks(user: number, text: string, calls: any[]): Promise<any[]> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user, segments: [seg.at(10001), seg.text(` ${text}`)] })
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return lastToolValues(h.server.requests[before + 1], calls.length)
  }

  it('a task fires as a turn of its group, its note naming it and who asked; the turn is counted to the asker', async () => {
    await start()
    const at = localTime(Date.now() + 2500, 'Asia/Shanghai')
    const [added] = await asks(ALICE, 'remind me to drink tea in a moment', [call('schedule', { at, note: 'tell alice: tea time' })])
    expect(added).to.deep.equal({ ok: true, id: added.id, next: at })
    const [listed] = await asks(BOB, 'what is planned here?', [call('schedule', { list: true })])
    expect(listed.tasks).to.deep.equal([{ id: added.id, next: at, note: 'tell alice: tea time', who: { id: String(ALICE), name: 'alice' } }])

    // the send ends the turn
    h.server.script({ toolCalls: [call('send_message', { messages: ['alice, tea time!'] })], ...costing(2) })
    await h.server.waitForRequests(5, 10_000)
    await h.settled()
    const note = lastUserText(h.server.requests[4])
    expect(note).to.match(new RegExp(`\\[schedule #${added.id}, asked by alice \\(${ALICE}\\) on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d: tell alice: tea time\\]`))
    expect(h.napcat.sent.map(s => [s.target, s.segments.map(x => x.data?.text).join('')])).to.deep.include([GROUP, 'alice, tea time!'])
    // the scheduled turn's 2.00 is alice's, not the conversation's alone
    const report = await h.app.kotodama.budgetReport()
    const perUser = report.lines.find(l => l.name === 'perUserDay')!
    expect(perUser.top.find(k => k.key === `user:onebot:${ALICE}`)?.spent).to.be.at.least(2)
    // fired once: nothing more comes
    await h.idle(1500)
    expect(h.server.requests).to.have.length(5)
    const [after] = await asks(BOB, 'anything left?', [call('schedule', { list: true })])
    expect(after).to.deep.equal({ ok: true, tasks: [] })
  })

  it('a task whose group is gone: its turn reads the platform\'s refusal, and, acting for the asker, cancels her weekly task', async () => {
    await start()
    const at = localTime(Date.now() + 2500, 'Asia/Shanghai')
    const [weekly, once] = await asks(ALICE, 'post the plan weekly, and once now', [
      call('schedule', { cron: '0 9 * * 1', note: 'post the week plan' }), call('schedule', { at, note: 'post the plan once' }),
    ])
    expect([weekly.ok, once.ok]).to.deep.equal([true, true])
    // NapCat's answer when QQ never confirms the send (helper/event.ts: a group the bot is no longer in)
    h.napcat.fail('send_group_msg', { retcode: 1200, message: 'Timeout: NTEvent serviceAndMethod:NodeIKernelMsgService/sendMsg' })
    const before = h.server.requests.length
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['the plan: …'], continue: true })] },
      { toolCalls: [call('schedule', { cancel: weekly.id })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.server.waitForRequests(before + 3, 10_000)
    await h.settled()
    const [sent] = toolResultsOf(h.server.requests[before + 1]).slice(-1).map(r => r.content)
    // the adapter passes on NapCat's retcode (koishi-plugin-adapter-onebot drops its message)
    expect(JSON.parse(sent).error).to.deep.equal({ name: 'SendFailed', message: 'send_group_msg failed: retcode 1200' })
    const [cancelled] = toolResultsOf(h.server.requests[before + 2]).slice(-1).map(r => JSON.parse(r.content))
    expect(cancelled).to.deep.equal({ ok: true, cancelled: weekly.id })
    h.napcat.reset()
    const [listed] = await asks(BOB, 'anything planned?', [call('schedule', { list: true })])
    expect(listed.tasks).to.deep.equal([])
  })

  it('cancel: another member gets NotAllowed and the task stays; the bot owner and the asker may', async () => {
    await start()
    const [a1] = await asks(ALICE, 'post the plan every monday', [call('schedule', { cron: '0 9 * * 1', note: 'post the week plan' })])
    const [a2] = await asks(ALICE, 'and remind me of the meeting', [call('schedule', { at: '2099-01-05 10:00', note: 'meeting' })])
    const [refused] = await asks(BOB, `cancel #${a1.id}`, [call('schedule', { cancel: a1.id })])
    expect(refused.error.name).to.equal('NotAllowed')
    expect(refused.error.message).to.include('the bot owner').and.include('do not try another way')
    const [byOwner] = await asks(OWNER, `cancel ${a1.id}`, [call('schedule', { cancel: `#${a1.id}` })])
    expect(byOwner).to.deep.equal({ ok: true, cancelled: a1.id })
    const [byAsker] = await asks(ALICE, `cancel ${a2.id}`, [call('schedule', { cancel: a2.id })])
    expect(byAsker).to.deep.equal({ ok: true, cancelled: a2.id })
    const [gone] = await asks(ALICE, 'cancel it again', [call('schedule', { cancel: a2.id })])
    expect(gone.error.name).to.equal('NotFound')
  })

  it('bad input: a vague time, six cron fields, a 100,000-character note, a past time — each a structured error, nothing stored', async () => {
    await start()
    const results = await asks(ALICE, 'remind me', [
      call('schedule', { at: 'tomorrow-ish', note: 'x' }),
      call('schedule', { cron: '* * * * * *', note: 'x' }),
      call('schedule', { at: '2099-01-05 10:00', note: 'x'.repeat(100_000) }),
      call('schedule', { at: '2020-01-05 10:00', note: 'x' }),
      call('schedule', { cron: '*/5 * * * *', note: 'x' }),
    ])
    expect(results.slice(0, 2).map(r => r.error?.name)).to.deep.equal(['InvalidTime', 'InvalidTime'])
    expect(JSON.stringify(results[2])).to.include('Invalid input for tool schedule').and.include('note')
    expect(JSON.stringify(results[2]).length).to.be.below(600)
    expect(results.slice(3).map(r => r.error?.name)).to.deep.equal(['PastTime', 'TooFrequent'])
    const [listed] = await asks(ALICE, 'list', [call('schedule', { list: true })])
    expect(listed.tasks).to.deep.equal([])
  })

  it('a program asking 1,000 tasks: codemode ends it at its call limit; perConversation tasks are stored, TooMany for the rest', async () => {
    await start({ schedules: { perConversation: 20, perUser: 1000 }, codemode: { enabled: true, direct: [] } })
    const program = `const out = []
for (let i = 0; i < 1000; i++) out.push(await tools.schedule({ cron: '0 9 * * 1', note: 'plan ' + i }))
return { ok: out.filter(r => r.ok).length, tooMany: out.filter(r => r.error && r.error.name === 'TooMany').length }`
    const [ran] = await asks(ALICE, 'schedule a lot', [call('codemode', { code: program })])
    // codemode.maxToolCalls (200) ends the program: a bounded, named result
    expect(JSON.stringify(ran)).to.include('ToolCallLimitError: the program made more than 200 tool calls')
    const counted = `const out = []
for (let i = 0; i < 150; i++) out.push(await tools.schedule({ cron: '0 9 * * 1', note: 'plan ' + i }))
return { ok: out.filter(r => r.ok).length, tooMany: out.filter(r => r.error && r.error.name === 'TooMany').length }`
    const [again] = await asks(ALICE, 'schedule fewer', [call('codemode', { code: counted })])
    expect(JSON.stringify(again)).to.include('"ok":0').and.include('"tooMany":150')
    const [listed] = await asks(ALICE, 'list', [call('schedule', { list: true })])
    expect(listed.tasks).to.have.length(20)
  })
})
