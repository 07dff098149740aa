// Upkeep through the real plugin (SPEC §26): Koishi with plugin-mock, the real AI SDK provider
// against the scripted OpenAI-compatible server, recall's real index, memory's real writer on a real
// home. What a run reads, what it may propose, what review does with it, and that it speaks to no one.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { call, type Harness } from '../support/harness'
import { homeOf, historyFile } from '../support/faults'
import { chat, firstText, isUpkeep, proposing, sourceOf, upkeepOf, upkeepRig } from '../support/upkeep'

const note = (h: Harness, rel: string) => readFile(join(homeOf(h), 'local', rel), 'utf8').catch((): undefined => undefined)
const lines = async (h: Harness, channel: string) => (await readFile(historyFile(h, channel), 'utf8')).split('\n').filter(Boolean).length

describe('upkeep: a run through the real plugin', function () {
  this.timeout(30000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('review owner: the proposal is stored, not applied; the run reads the new messages and sends nothing, starts no turn', async () => {
    h = await upkeepRig({ review: 'owner' })
    await chat(h, [['alice', 'g1', 'I moved to Osaka last week, and I work as a nurse now'], ['bob', 'g1', 'nice weather today']])
    const sent = h.allSent.length
    const history = await lines(h, 'group:g1')
    const before = h.server.requests.length
    h.server.script(proposing(req => ({
      url: 'local://memory/people/mock/alice.md', append: 'Lives in Osaka (moved 2026-11); works as a nurse.\n',
      reason: 'she said so', sources: [sourceOf(req, 'I moved to Osaka')],
    })))
    const report = await (await upkeepOf(h)).run('test')
    expect(report).to.include({ conversations: 1, proposed: 1, applied: 0, requests: 1 })
    expect(report.stopped).to.equal(undefined)
    const req = h.server.requests[before]
    expect(isUpkeep(req)).to.equal(true)
    const first = firstText(req)
    if (process.env.SHOW) console.log(req.body.messages[0].content, '\n----\n', first)
    expect(first).to.include('I moved to Osaka').and.to.include('nice weather today')
    expect(first).to.include('- alice (id alice): local://memory/people/mock/alice.md (no note yet)')
    // no send_message, no finish: read, search and propose only
    expect((req.body.tools as any[]).map(t => t.function.name).sort()).to.deep.equal(['propose', 'read', 'search'])
    const [p] = (await upkeepOf(h)).proposals()
    expect(p).to.include({ id: 'u1', state: 'pending', url: 'local://memory/people/mock/alice.md', conversation: 'group:g1' })
    expect(p.authors).to.deep.equal([{ id: 'alice', name: 'alice' }])
    expect(await note(h, 'memory/people/mock/alice.md'), 'not applied before review').to.equal(undefined)
    expect(h.allSent.length, 'nothing sent').to.equal(sent)
    expect(await lines(h, 'group:g1'), 'no turn, no entry').to.equal(history)

    const done = await (await upkeepOf(h)).decide('u1', 'accept', 'console')
    expect(done.ok && done.proposal.state).to.equal('applied')
    expect(await note(h, 'memory/people/mock/alice.md')).to.equal('Lives in Osaka (moved 2026-11); works as a nurse.\n')
  })

  it('review auto: a proposal is applied at once, as write would make it; a second run sees only what is new', async () => {
    h = await upkeepRig({ review: 'auto' })
    await chat(h, [['alice', 'g1', 'my cat is called Mochi']])
    h.server.script(proposing(req => ({
      url: 'local://memory/people/mock/alice.md', content: '# alice\nHas a cat called Mochi.\n', reason: 'her cat', sources: [sourceOf(req, 'Mochi')],
    })))
    const upkeep = await upkeepOf(h)
    const report = await upkeep.run('test')
    // a step whose proposals all succeed ends the run: one request
    expect(report).to.include({ proposed: 1, applied: 1, requests: 1 })
    expect(await note(h, 'memory/people/mock/alice.md')).to.equal('# alice\nHas a cat called Mochi.\n')

    await chat(h, [['alice', 'g1', 'Mochi turned three today']])
    const at = h.server.requests.length
    h.server.script({ content: 'nothing to change' })
    await upkeep.run('test')
    const second = firstText(h.server.requests[at])
    expect(second).to.include('Mochi turned three').and.not.include('my cat is called Mochi')
    expect(second, 'the note as it is now').to.include('  Has a cat called Mochi.')
  })

  it('nothing new: no request at all', async () => {
    h = await upkeepRig()
    await chat(h, [['alice', 'g1', 'hello']])
    h.server.script({ content: 'nothing' })
    const upkeep = await upkeepOf(h)
    await upkeep.run('test')
    const n = h.server.requests.length
    const report = await upkeep.run('test')
    expect(report).to.include({ conversations: 0, requests: 0 })
    expect(h.server.requests.length).to.equal(n)
  })

  it('a model that must call a tool every step (toolChoice: required) is offered finish, and finish ends the run', async () => {
    h = await upkeepRig({}, { model: { toolChoice: 'required' } })
    await chat(h, [['alice', 'g1', 'hello']])
    const at = h.server.requests.length
    h.server.script({ toolCalls: [call('finish', {})] })
    expect(await (await upkeepOf(h)).run('test')).to.include({ requests: 1 })
    const req = h.server.requests[at]
    expect(req.body.tool_choice).to.equal('required')
    expect((req.body.tools as any[]).map(t => t.function.name).sort()).to.deep.equal(['finish', 'propose', 'read', 'search'])
  })

  it('a note whose name is escaped (a user id with a dot) is proposed and written by the URL the run was shown', async () => {
    h = await upkeepRig({ review: 'auto' })
    await chat(h, [['j.doe', 'g1', 'I am a pilot']])
    let url = ''
    h.server.script(req => {
      url = /- j\.doe \(id j\.doe\): (\S+) \(no note yet\)/.exec(firstText(req))![1]
      return proposing(() => ({ url, append: 'A pilot.\n', reason: 'r', sources: [sourceOf(req, 'pilot')] }))(req)
    })
    expect(await (await upkeepOf(h)).run('test')).to.include({ applied: 1 })
    expect(url).to.equal('local://memory/people/mock/j%252Edoe.md')
    expect((await upkeepOf(h)).proposals()[0].url).to.equal(url)
    expect(await note(h, 'memory/people/mock/j%2Edoe.md')).to.equal('A pilot.\n')
  })
})
