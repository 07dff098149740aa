// Upkeep through the real OneBot adapter and the fake NapCat (SPEC §26, §22): what a member says in
// a private chat reaches neither a group's run nor a group's notes, and its run writes that person's
// private section; a group's picture reaches the run as [image], never as the platform's link; a
// member's words about another are refused as a fact in that person's note.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastToolValues } from '../support/fake-openai'
import { firstText, isUpkeep, proposing, sourceOf } from '../support/upkeep'
import { runtimeHome } from '../../src/runtime/runtime'
import { upkeepPart } from '../../src/upkeep/part'

const GROUP = 555
const ALICE = 2001
const BOB = 2002
const IMAGE_URL = 'https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhQ&rkey=CAQSKAB'

describe('upkeep through the OneBot adapter (SPEC §26)', function () {
  this.timeout(30000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  const note = (rel: string) => readFile(join(runtimeHome(h.dataDir, 'neko', 'onebot:10001'), 'local', rel), 'utf8').catch((): undefined => undefined)

  it('a private chat stays private, a picture comes as [image] without its link, a claim about another is refused as a fact', async () => {
    h = await OneBotHarness.start({ profile: { upkeep: { enabled: true, review: 'auto' } } })
    h.napcat.member(GROUP, ALICE, { nickname: 'alice' })
    h.napcat.member(GROUP, BOB, { nickname: 'bob' })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: ALICE, segments: [seg.text('between us: my new job starts in March')] })
    await h.napcat.groupMessage({ group: GROUP, user: BOB, segments: [seg.text('I play bass in a jazz trio')] })
    await h.napcat.groupMessage({ group: GROUP, user: ALICE, segments: [seg.text('bob never pays back what he owes, look'), seg.image({ url: IMAGE_URL })] })
    await h.idle(300)
    await h.settled()
    h.server.fallback(undefined)
    const [rt] = await h.app.kotodama.list()
    const upkeep = rt.part(upkeepPart)!.upkeep
    const at = h.server.requests.length
    // conversations in key order: the group, then alice's private chat
    h.server.script(proposing(
      req => ({ url: `local://memory/people/onebot/${BOB}.md`, append: 'Plays bass in a jazz trio.\n', reason: 'his words', sources: [sourceOf(req, 'jazz trio')] }),
      req => ({ url: `local://memory/people/onebot/${BOB}.md`, append: 'Never pays back what he owes.\n', reason: 'debts', sources: [sourceOf(req, 'never pays')] }),
    ), { content: 'done' }, proposing(
      req => ({ url: `local://memory/people/onebot/${ALICE}.md`, append: 'New job from March (told in private).\n', reason: 'her news', sources: [sourceOf(req, 'new job')] }),
    ))
    const report = await upkeep.run('test')
    expect(report).to.include({ conversations: 2, applied: 2 })
    const reqs = h.server.requests.slice(at).filter(isUpkeep)
    const group = reqs.filter(r => firstText(r).includes(`group:${GROUP}`))
    const direct = reqs.filter(r => firstText(r).includes('the private chat with'))
    expect(group).to.have.length(2)
    expect(direct).to.have.length(1)
    for (const r of group) expect(JSON.stringify(r.body), 'no private word in a group\'s request').to.not.include('new job')
    for (const r of reqs) expect(JSON.stringify(r.body), 'no platform link').to.not.include('multimedia.nt.qq.com.cn').and.not.include('rkey')
    expect(firstText(group[0])).to.include('bob never pays back what he owes, look [image]')
    const [own, claim] = lastToolValues(group[1], 2)
    expect(own).to.include({ ok: true, applied: true })
    expect(claim.error.code).to.equal('forbidden')
    expect(claim.error.message).to.include(`alice (${ALICE})`)
    expect(await note(`memory/people/onebot/${BOB}.md`)).to.equal('Plays bass in a jazz trio.\n')
    expect(await note(`memory/people/onebot/${ALICE}.private.md`)).to.equal('New job from March (told in private).\n')
    expect(await note(`memory/people/onebot/${ALICE}.md`), 'the note groups read stays as it was').to.equal(undefined)
  })
})
