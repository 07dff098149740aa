// kotodama.upkeep and kotodama.upkeep.review through the real plugin (SPEC §26): Koishi with
// plugin-mock and a database (authority 4), a scripted model. The run's answer says what it did and
// how to decide what waits; a decision answers its outcome; kotodama.status counts what waits.
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { memoryDatabase } from '../support/databases'
import { homeOf } from '../support/faults'
import type { Harness } from '../support/harness'
import { chat, proposing, sourceOf, upkeepRig } from '../support/upkeep'

const ALICE = 'local://memory/people/mock/alice.md'
const noteOf = (h: Harness) => join(homeOf(h), 'local', 'memory', 'people', 'mock', 'alice.md')

describe('kotodama.upkeep and kotodama.upkeep.review (SPEC §26)', function () {
  this.timeout(30000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  async function rig(upkeep: Record<string, unknown> = {}) {
    h = await upkeepRig(upkeep, { database: memoryDatabase() })
    await h.app.mock.initUser('owner', 4)
    await h.app.mock.initUser('mod', 3)
    return h
  }
  const say = async (user: string, text: string, channel = 'g1') => (await h!.client(user, channel).receive(text)).join('\n')

  it('runs now and answers what it did; review accepts and rejects by id; status counts what waits', async () => {
    await rig({ review: 'owner' })
    await chat(h!, [['alice', 'g1', 'I moved to Osaka last week'], ['alice', 'g1', 'and my cat is called Mochi']])
    expect(await say('mod', 'kotodama.upkeep'), 'authority 4 only').to.equal('Low authority.')
    h!.server.script(proposing(
      req => ({ url: ALICE, append: 'Lives in Osaka.\n', reason: 'she said so', sources: [sourceOf(req, 'Osaka')] }),
      req => ({ url: ALICE, append: 'Has a cat called Mochi.\n', reason: 'her cat', sources: [sourceOf(req, 'Mochi')] }),
    ))
    const answer = await say('owner', 'kotodama.upkeep')
    const [done, pending] = answer.split('\n')
    expect(done).to.match(/^Upkeep looked at 1 conversation\(s\), 2 new message\(s\) \(1 request\(s\), \d+ prompt tokens\): 2 change\(s\) proposed, 0 applied\.$/)
    expect(pending).to.equal('2 change(s) wait for review (u1, u2): kotodama.upkeep.review accept u1 (or reject u1), or on the console page.')
    expect(await readFile(noteOf(h!), 'utf8').catch(() => 'none'), 'nothing applied before review').to.equal('none')
    expect(await say('owner', 'kotodama.status')).to.match(/\n {2}upkeep: 2 change\(s\) wait for review; last run \d{4}-\d\d-\d\d \d\d:\d\d/)

    expect(await say('owner', 'kotodama.upkeep.review accept u1')).to.equal(`Change u1 accepted and applied to ${ALICE}.`)
    expect(await readFile(noteOf(h!), 'utf8')).to.equal('Lives in Osaka.\n')
    expect(await say('owner', 'kotodama.upkeep.review reject u2')).to.equal('Change u2 rejected; it will not be proposed again.')
    expect(await readFile(noteOf(h!), 'utf8')).to.equal('Lives in Osaka.\n')
    expect(await say('owner', 'kotodama.upkeep.review accept u2')).to.equal('Change u2 is rejected already; only a pending change, or a failed one to accept again, can be decided.')
    expect(await say('owner', 'kotodama.upkeep.review accept u9')).to.equal('There is no proposal u9.')
    expect(await say('owner', 'kotodama.upkeep.review maybe u1')).to.include('kotodama.upkeep.review accept <id>')
    expect(await say('mod', 'kotodama.upkeep.review accept u2')).to.equal('Low authority.')
    expect(await say('owner', 'kotodama.status')).to.include('  upkeep: 0 change(s) wait for review; last run')
  })

  it('a change whose note moved on fails with the write\'s words, and stays to be accepted again', async () => {
    await rig()
    await mkdir(dirname(noteOf(h!)), { recursive: true })
    await writeFile(noteOf(h!), '# alice\nLives in Kyoto.\n')
    await chat(h!, [['alice', 'g1', 'I moved from Kyoto to Osaka']])
    h!.server.script(proposing(req => ({
      url: ALICE, edit: { find: 'Lives in Kyoto.', replace: 'Lives in Osaka.' }, reason: 'she moved', sources: [sourceOf(req, 'Osaka')],
    })))
    expect(await say('owner', 'kotodama.upkeep')).to.include('1 change(s) proposed, 0 applied')
    // the mind wrote the note meanwhile
    await writeFile(noteOf(h!), '# alice\nLives in Nara.\n')
    const failed = await say('owner', 'kotodama.upkeep.review accept u1')
    expect(failed).to.match(/^Change u1 could not be applied to local:\/\/memory\/people\/mock\/alice\.md: no_match: .+\. It stays; accept it again/)
    expect(await readFile(noteOf(h!), 'utf8')).to.equal('# alice\nLives in Nara.\n')
    await writeFile(noteOf(h!), '# alice\nLives in Kyoto.\n')
    expect(await say('owner', 'kotodama.upkeep.review accept u1')).to.equal(`Change u1 accepted and applied to ${ALICE}.`)
    expect(await readFile(noteOf(h!), 'utf8')).to.equal('# alice\nLives in Osaka.\n')
  })

  it('nothing new, a model that fails, upkeep off, a profile that is not there: one clear line each', async () => {
    await rig()
    expect(await say('owner', 'kotodama.upkeep')).to.equal('No conversation has new messages since the last upkeep; nothing was proposed.')
    await chat(h!, [['alice', 'g1', 'hello there']])
    // nothing scripted: the server answers 400
    const failed = (await say('owner', 'kotodama.upkeep')).split('\n')
    expect(failed[0]).to.include('1 conversation(s), 1 new message(s)')
    expect(failed[1]).to.match(/^It stopped early: the model failed \(.+\)\.$/)
    expect(await say('owner', 'kotodama.upkeep nobody')).to.equal('No profile has the id nobody (profiles: neko).')
    expect(await say('owner', 'kotodama.upkeep.review accept u1 -p nobody')).to.equal('No profile has the id nobody (profiles: neko).')
    await h!.stop()
    h = await upkeepRig({ enabled: false }, { database: memoryDatabase() })
    await h.app.mock.initUser('owner', 4)
    expect(await say('owner', 'kotodama.upkeep')).to.equal('Upkeep is off for profile neko (upkeep.enabled).')
    expect(await say('owner', 'kotodama.upkeep.review accept u1')).to.equal('Upkeep is off for profile neko (upkeep.enabled).')
    expect(await say('owner', 'kotodama.status')).to.not.include('upkeep')
  })
})
