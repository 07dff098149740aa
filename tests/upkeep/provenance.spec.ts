// Upkeep's rules of what goes where (SPEC §26, §22), through the real plugin: a private chat's
// words never reach a group's run, and its run changes only that person's note (its private
// section); what one member says of another is kept as their claim; the file a change names must
// be under local://memory/ and one the chat may see.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastToolValues, toolResultsOf } from '../support/fake-openai'
import { call, FAST_TYPING, Harness, NO_DEBOUNCE } from '../support/harness'
import { homeOf } from '../support/faults'
import { chat, firstText, isUpkeep, proposing, sourceOf, upkeepOf, upkeepRig } from '../support/upkeep'

const note = (h: Harness, rel: string) => readFile(join(homeOf(h), 'local', rel), 'utf8').catch((): undefined => undefined)

describe('upkeep: provenance and places', function () {
  this.timeout(30000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('a private chat\'s words are in no group\'s request; its run writes only that person\'s private section', async () => {
    h = await upkeepRig({ review: 'auto' })
    await chat(h, [['bob', undefined, 'between us: I am quitting my job in March'], ['bob', 'g1', 'morning all'], ['alice', 'g1', 'hi bob']])
    const upkeep = await upkeepOf(h)
    const at = h.server.requests.length
    // conversations in key order: group:g1, then private:bob
    h.server.script({ content: 'nothing here' }, proposing(
      req => ({ url: 'local://memory/people/mock/bob.md', append: 'Quitting his job in March (told me in private).\n', reason: 'his plan', sources: [sourceOf(req, 'quitting')] }),
      req => ({ url: 'local://memory/core.md', append: 'Bob is quitting.\n', reason: 'news', sources: [sourceOf(req, 'quitting')] }),
    ), { content: 'done' })
    const report = await upkeep.run('test')
    const reqs = h.server.requests.slice(at).filter(isUpkeep)
    const group = reqs.find(r => firstText(r).includes('the group group:g1'))!
    const direct = reqs.find(r => firstText(r).includes('the private chat with bob'))!
    expect(JSON.stringify(group.body), 'the group run never sees the private chat').to.not.include('quitting')
    expect(firstText(direct)).to.include('between us: I am quitting my job in March')
    const [own, core] = lastToolValues(h.server.requests.at(-1)!, 2)
    expect(own).to.include({ ok: true, applied: true })
    expect(core.ok).to.equal(false)
    expect(core.error.code).to.equal('forbidden')
    expect(core.error.message).to.include('local://memory/people/mock/bob.md')
    expect(await note(h, 'memory/people/mock/bob.private.md')).to.equal('Quitting his job in March (told me in private).\n')
    expect(await note(h, 'memory/people/mock/bob.md'), 'the shared note groups read is untouched').to.equal(undefined)
    expect(await note(h, 'memory/core.md')).to.equal(undefined)
    expect(report).to.include({ conversations: 2, proposed: 1, applied: 1 })
  })

  it('what alice says of bob is refused as a fact and taken as her claim; what bob says of himself goes in as it is', async () => {
    h = await upkeepRig({ review: 'owner' })
    await chat(h, [['bob', 'g1', 'I play bass in a jazz trio'], ['alice', 'g1', 'bob owes me 500 yuan and never pays']])
    const upkeep = await upkeepOf(h)
    h.server.script(proposing(
      req => ({ url: 'local://memory/people/mock/bob.md', append: 'Plays bass in a jazz trio.\n', reason: 'he said so', sources: [sourceOf(req, 'jazz trio')] }),
      req => ({ url: 'local://memory/people/mock/bob.md', append: 'Owes 500 yuan and never pays.\n', reason: 'debt', sources: [sourceOf(req, '500 yuan')] }),
    ), proposing(
      req => ({ url: 'local://memory/people/mock/bob.md', append: 'alice says he owes her 500 yuan.\n', reason: 'her claim', sources: [sourceOf(h!.server.requests.find(isUpkeep)!, '500 yuan')] }),
    ))
    const at = h.server.requests.length
    const report = await upkeep.run('test')
    const [self, claim] = lastToolValues(h.server.requests[at + 1], 2)
    expect(self).to.deep.equal({ ok: true, id: 'u1' })
    expect(claim.error.code).to.equal('forbidden')
    expect(claim.error.message).to.include('alice (alice)').and.include('their claim')
    expect(report).to.include({ proposed: 2, requests: 2 })
    expect(upkeep.proposals().map(p => [p.id, p.change])).to.deep.equal([
      ['u1', { append: 'Plays bass in a jazz trio.\n' }], ['u2', { append: 'alice says he owes her 500 yuan.\n' }],
    ])
    expect(upkeep.proposals()[1].authors).to.deep.equal([{ id: 'alice', name: 'alice' }])
  })

  it('bad proposals are refused with their code, and nothing is stored: outside memory, a private section, 1 MB, no sources, another chat\'s message', async () => {
    h = await upkeepRig({ review: 'owner' })
    await chat(h, [['alice', 'g1', 'I love climbing'], ['carol', 'g2', 'I love sailing']])
    const upkeep = await upkeepOf(h)
    let g2 = ''
    h.server.script({ content: 'nothing' }, { content: 'nothing' })
    expect(await upkeep.run('warm')).to.include({ conversations: 2, requests: 2 })
    g2 = sourceOf(h.server.requests.filter(isUpkeep).find(r => firstText(r).includes('group:g2'))!, 'sailing')
    await chat(h, [['alice', 'g1', 'and bouldering on weekends']])
    const base = (req: any) => ({ reason: 'r', sources: [sourceOf(req, 'bouldering')] })
    h.server.script(proposing(
      req => ({ ...base(req), url: 'local://notes.md', append: 'x' }),
      req => ({ ...base(req), url: 'skill://x/SKILL.md', append: 'x' }),
      req => ({ ...base(req), url: 'local://memory/people/mock/alice.private.md', append: 'x' }),
      req => ({ ...base(req), url: 'local://memory/people/mock/carol.md', append: 'carol? no' }),
      req => ({ ...base(req), url: 'local://memory/people/mock/alice.md', append: 'y'.repeat(1024 * 1024) }),
      () => ({ url: 'local://memory/people/mock/alice.md', append: 'Climbs.\n', reason: 'r', sources: [] }),
      () => ({ url: 'local://memory/people/mock/alice.md', append: 'Climbs.\n', reason: 'r', sources: [g2] }),
      () => ({ url: 'local://memory/people/mock/alice.md', append: 'Climbs.\n', reason: 'r', sources: ['history://group%3Ag1/99999'] }),
    ), { content: 'done' })
    const at = h.server.requests.length
    expect(await upkeep.run('test')).to.include({ conversations: 1, requests: 2, proposed: 0 })
    const results = lastToolValues(h.server.requests[at + 1], 8)
    expect(results.map(r => r.error?.code)).to.deep.equal(['forbidden', 'forbidden', 'forbidden', 'forbidden', 'too_large', 'no_sources', 'no_sources', 'no_sources'])
    expect(results[0].error.message).to.include('local://memory/ only')
    expect(results[3].error.message).to.include('never wrote here')
    expect(results[6].error.message).to.include('not a message of this conversation')
    expect(upkeep.proposals()).to.deep.equal([])
  })

  it('cross mode: one conversation, a run per chat — the group\'s never holds the private chat\'s words, even through read and search', async () => {
    h = await Harness.start({ profiles: [{
      id: 'hub', persona: 'You are the hub.', model: 'main', mode: 'cross', typing: FAST_TYPING, timing: NO_DEBOUNCE,
      claims: [{ bot: 'mock:514', channels: ['group:room*', 'private:*'] }], upkeep: { enabled: true, review: 'owner' },
    }] })
    await chat(h, [['alice', undefined, 'my diagnosis is zebra-flu, keep it between us'], ['bob', 'room1', 'anyone up for chess tonight?']])
    const upkeep = await upkeepOf(h)
    const at = h.server.requests.length
    // the group's chat looks further, as a curious model might; then nothing
    h.server.fallback(req => firstText(req).includes('room1') && !(req.body.messages as any[]).some(m => m.role === 'tool')
      ? { toolCalls: [call('read', { url: 'history://cross' }), call('search', { query: 'zebra-flu diagnosis' })] }
      : { content: 'nothing' })
    const report = await upkeep.run('test')
    expect(report).to.include({ conversations: 1 })
    const reqs = h.server.requests.slice(at).filter(isUpkeep)
    const group = reqs.filter(r => firstText(r).includes('the group group:room1'))
    const direct = reqs.filter(r => firstText(r).includes('the private chat with alice'))
    expect(group.length).to.be.at.least(2)
    expect(direct).to.have.length(1)
    // what the group's run was shown: its messages, and what read and search found (its own query aside)
    const shown = group.map(r => firstText(r) + JSON.stringify(toolResultsOf(r))).join('\n')
    expect(toolResultsOf(group[1])).to.have.length(2)
    expect(shown, 'no private word in what any group request showed').to.not.include('zebra').and.not.include('between us')
    expect(firstText(group[0])).to.include('chess').and.not.include('diagnosis')
    expect(firstText(direct[0])).to.include('zebra-flu').and.not.include('chess')
  })
})
