// Bots that answer each other (SPEC §22 "Who may steer it", `wake.ignoreUsers`): QQ through OneBot
// flags no account as a bot, so two kotodama bots in one group would wake each other forever. Two
// profiles on two bots of one Koishi app (two real OneBot adapters, each on its own fake NapCat),
// each with the other in wake.ignoreUsers: their mentions of each other start no turn, fill no
// wait, and are stored; a person still wakes either.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Universal } from 'koishi'
import onebot from 'koishi-plugin-adapter-onebot'
import { FakeNapCat, seg } from '../support/fakes/onebot'
import { OneBotHarness, call, FAST_TYPING, NO_DEBOUNCE } from '../support/onebot-harness'
import { runtimeHome } from '../../src/runtime/runtime-options'
import { safeName } from '../../src/util/safe-name'

const GROUP = 555
const NEKO = 10001
const TAMA = 10002
const ALICE = 2001

const profile = (id: string, self: number, other: number) => ({
  id, persona: `You are ${id}.`, model: 'main', claims: [{ bot: `onebot:${self}`, channels: ['*'] }],
  typing: FAST_TYPING, timing: NO_DEBOUNCE, wake: { ignoreUsers: [`onebot:${other}`] },
})

describe('trust: two kotodama bots in one OneBot group ignore each other', function () {
  this.timeout(20000)
  let h: OneBotHarness
  let tama: FakeNapCat
  let second: ReturnType<OneBotHarness['app']['plugin']>

  beforeEach(async () => {
    h = await OneBotHarness.start({ selfId: NEKO, profiles: [profile('neko', NEKO, TAMA), profile('tama', TAMA, NEKO)] })
    tama = await FakeNapCat.start({ selfId: TAMA })
    second = h.app.plugin(onebot, { ...h.adapterConfig, selfId: String(TAMA), endpoint: tama.url })
    await h.until(() => h.app.bots.some(b => b.selfId === String(TAMA) && b.status === Universal.Status.ONLINE), 'the second bot online')
  })
  afterEach(async () => {
    second?.dispose()
    await h?.stop()
    await tama?.close()
  })

  /** each bot mentions the other ten times, as each bot's NapCat reports the other's messages */
  async function pingPong(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await h.napcat.groupMessage({ group: GROUP, user: TAMA, nickname: 'tama', segments: [seg.at(NEKO), seg.text(` neko, your turn ${i}`)] })
      await tama.groupMessage({ group: GROUP, user: NEKO, nickname: 'neko', segments: [seg.at(TAMA), seg.text(` tama, your turn ${i}`)] })
    }
    await h.idle(300)
  }

  const facts = async (self: number, id: string) => {
    const file = join(runtimeHome(h.dataDir, id, `onebot:${self}`), 'conversations', `${safeName(`group:${GROUP}`)}.jsonl`)
    const text = await readFile(file, 'utf8').catch(() => '')
    return text.split('\n').filter(Boolean).map(l => JSON.parse(l)).filter(e => e.type === 'fact')
  }

  it('20 mentions of one bot by the other start no turn; they are stored, held as ignored', async () => {
    await pingPong()
    expect(h.server.requests).to.have.length(0)
    await h.until(async () => (await facts(NEKO, 'neko')).length === 10 && (await facts(TAMA, 'tama')).length === 10, 'the facts stored')
    for (const [self, id] of [[NEKO, 'neko'], [TAMA, 'tama']] as const) {
      expect((await facts(self, id)).map(e => e.held)).to.deep.equal(Array(10).fill('ignored'))
    }
  })

  it('they never count toward wait({messages}); a person\'s message does, and a person still wakes the other', async () => {
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] })
    await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(NEKO), seg.text(' wait for my next message')] })
    await h.server.waitForRequests(1)
    await h.settled()
    await pingPong()
    expect(h.server.requests).to.have.length(1)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.text('here it is')] })
    await h.server.waitForRequests(2)
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await tama.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(TAMA), seg.text(' and you, tama?')] })
    await h.server.waitForRequests(3)
    await h.settled()
    expect(h.server.requests[2].body.messages[0].content).to.include('You are tama.')
  })
})
