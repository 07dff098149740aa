// Upkeep when things repeat, flood or break (SPEC §26): a change proposed again (in one step, in a
// later run, after it was rejected) is a duplicate; maxChanges bounds a day; 50,000 new messages are
// read in chunks and stop at maxTokens; the budgets stop a run; a crash between a change's write and
// its record, or after its record, leaves it applied exactly once after the restart; a full disk
// (a real tmpfs) refuses a proposal and keeps those stored.
import { expect } from 'chai'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastToolValues } from '../support/fake-openai'
import { Harness } from '../support/harness'
import { fill, homeOf, mountTmpfs, unmount } from '../support/faults'
import { runtimeHome } from '../../src/runtime/runtime'
import { PROPOSALS_FILE } from '../../src/upkeep/proposal-book'
import { STATE_FILE } from '../../src/upkeep/state'
import { chat, firstText, isUpkeep, proposing, runtimeOf, sourceOf, upkeepOf, upkeepRig, writeHistory } from '../support/upkeep'

const note = (h: Harness, rel: string) => readFile(join(homeOf(h), 'local', rel), 'utf8').catch((): undefined => undefined)
const ALICE = 'local://memory/people/mock/alice.md'

describe('upkeep: repeats, floods and faults', function () {
  this.timeout(60000)
  let h: Harness | undefined
  let dir: string | undefined
  let tmpfs: string | undefined
  afterEach(async () => {
    await h?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
    await unmount(tmpfs)
    h = dir = tmpfs = undefined
  })

  it('the same change 20 times in one step: one proposal, 19 duplicates; again in a later run, or after a reject: a duplicate', async () => {
    h = await upkeepRig({ review: 'owner' })
    await chat(h, [['alice', 'g1', 'I collect stamps']])
    const upkeep = await upkeepOf(h)
    const stamps = (req: any) => ({ url: ALICE, append: 'Collects stamps.\n', reason: 'hobby', sources: [sourceOf(req, 'stamps')] })
    h.server.script(proposing(...Array.from({ length: 20 }, () => stamps)), { content: 'done' })
    const at = h.server.requests.length
    expect(await upkeep.run('test')).to.include({ proposed: 1, requests: 2 })
    const results = lastToolValues(h.server.requests[at + 1], 20)
    expect(results.filter(r => r.ok)).to.have.length(1)
    expect(results.filter(r => r.error?.code === 'duplicate')).to.have.length(19)
    expect(results.find(r => !r.ok).error.message).to.include('proposal u1, pending')

    await upkeep.decide('u1', 'reject', 'console')
    await chat(h, [['alice', 'g1', 'stamps from 40 countries now']])
    const first = h.server.requests.length
    let seen = ''
    h.server.script(req => {
      seen = firstText(req)
      return proposing(() => ({ url: ALICE, append: 'Collects stamps.\n', reason: 'hobby', sources: [sourceOf(req, '40 countries')] }))(req)
    }, { content: 'done' })
    await upkeep.run('test')
    expect(seen).to.include('40 countries')
    expect(lastToolValues(h.server.requests[first + 1], 1)[0].error).to.deep.equal({ code: 'duplicate', message: 'this change is proposal u1, rejected; propose something else or nothing' })
    expect(upkeep.proposals()).to.have.length(1)
  })

  it('maxChanges: past the day\'s changes a proposal is refused with limit', async () => {
    h = await upkeepRig({ review: 'owner', maxChanges: 2 })
    await chat(h, [['alice', 'g1', 'I like tea, coffee and cocoa']])
    const upkeep = await upkeepOf(h)
    const drink = (d: string) => (req: any) => ({ url: ALICE, append: `Likes ${d}.\n`, reason: 'r', sources: [sourceOf(req, 'tea')] })
    h.server.script(proposing(drink('tea'), drink('coffee'), drink('cocoa')), { content: 'done' })
    const at = h.server.requests.length
    expect(await upkeep.run('test')).to.include({ proposed: 2 })
    expect(lastToolValues(h.server.requests[at + 1], 3).map(r => r.ok ? 'ok' : r.error.code)).to.deep.equal(['ok', 'ok', 'limit'])
    // the day's changes are made: a later run that day reads nothing and says why; the messages wait
    await chat(h, [['alice', 'g2', 'and I like matcha']])
    const n = h.server.requests.length
    expect(await upkeep.run('test')).to.include({ stopped: 'limit', requests: 0 })
    expect(h.server.requests.length).to.equal(n)
  })

  it('50,000 new messages: read a chunk at a time, stopped at maxTokens, the rest left for good; the next run starts after them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-upkeep-'))
    const home = runtimeHome(dir, 'neko', 'mock:514')
    await writeHistory(home, 'group:flood', 50_000, i => `message ${i} of the flood, with some words to make it a line`, 1000)
    h = await Harness.start({ dataDir: dir, profile: { upkeep: { enabled: true, maxTokens: 20_000 } } })
    h.server.fallback({ content: 'nothing worth keeping' })
    await runtimeOf(h)
    const upkeep = await upkeepOf(h)
    const report = await upkeep.run('test')
    const reqs = h.server.requests.filter(isUpkeep)
    // about 8,000 tokens a chunk: three requests reach 20,000
    expect(report.requests).to.equal(reqs.length).and.to.be.within(2, 4)
    expect(report.promptTokens).to.be.at.least(20_000).and.below(40_000)
    expect(report).to.include({ conversations: 1, messages: 50_000 })
    // what the chunks read before maxTokens, and the rest left for good
    expect(report.skipped).to.be.within(50_000 - 4 * 1500, 50_000 - 1)
    for (const r of reqs) expect(JSON.stringify(r.body).length).to.be.below(120_000)
    const again = await upkeep.run('test')
    expect(again).to.include({ conversations: 0, requests: 0 })
  })

  it('a server that reports no usage: the run counts its requests\' length, and maxTokens still stops it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-upkeep-'))
    await writeHistory(runtimeHome(dir, 'neko', 'mock:514'), 'group:flood', 5_000, i => `message ${i} of the flood, with some words to make it a line`, 1000)
    h = await Harness.start({ dataDir: dir, profile: { upkeep: { enabled: true, maxTokens: 20_000 } } })
    h.server.fallback({ content: 'nothing worth keeping', usage: false })
    await runtimeOf(h)
    const report = await (await upkeepOf(h)).run('test')
    expect(report.requests).to.be.within(1, 3)
    expect(report.promptTokens).to.be.at.least(20_000)
  })

  it('a crash after the write, before the book records it: after the restart the change is recorded applied, in the note once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-upkeep-'))
    h = await upkeepRig({ review: 'auto' }, { dataDir: dir })
    await chat(h, [['alice', 'g1', 'I run marathons']])
    const upkeep = await upkeepOf(h)
    upkeep.hooks.written = async () => { throw new Error('killed') }
    h.server.script(proposing(req => ({ url: ALICE, append: 'Runs marathons.\n', reason: 'r', sources: [sourceOf(req, 'marathons')] })), { content: 'done' })
    await upkeep.run('test')
    expect(upkeep.proposals()[0].state, 'the book on disk says applying').to.equal('applying')
    expect(JSON.parse(await readFile(join(homeOf(h), PROPOSALS_FILE), 'utf8')).proposals.u1.state).to.equal('applying')
    await h.stop()
    h = await upkeepRig({ review: 'auto' }, { dataDir: dir })
    await runtimeOf(h)
    const again = await upkeepOf(h)
    expect(again.proposals()[0].state).to.equal('applied')
    expect(await note(h, 'memory/people/mock/alice.md')).to.equal('Runs marathons.\n')
  })

  it('a crash after the book says applying, before the write: after the restart it is applied, once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-upkeep-'))
    h = await upkeepRig({ review: 'owner' }, { dataDir: dir })
    await chat(h, [['alice', 'g1', 'I speak four languages']])
    h.server.script(proposing(req => ({ url: ALICE, append: 'Speaks four languages.\n', reason: 'r', sources: [sourceOf(req, 'four languages')] })))
    await (await upkeepOf(h)).run('test')
    await h.stop()
    h = undefined
    // what the book holds when the process dies between recording `applying` and writing
    const file = join(runtimeHome(dir, 'neko', 'mock:514'), PROPOSALS_FILE)
    const book = JSON.parse(await readFile(file, 'utf8'))
    book.proposals.u1.state = 'applying'
    book.proposals.u1.decided = { at: Date.now(), by: 'console' }
    await writeFile(file, JSON.stringify(book))
    h = await upkeepRig({ review: 'owner' }, { dataDir: dir })
    await runtimeOf(h)
    expect((await upkeepOf(h)).proposals()[0]).to.include({ state: 'applied' })
    expect(await note(h, 'memory/people/mock/alice.md')).to.equal('Speaks four languages.\n')
  })

  it('the budgets stop a run: past budgets.perProfileDay no request goes out, the report says why, and its messages wait for the next run', async () => {
    h = await upkeepRig({ review: 'owner' }, { model: { price: { input: 1000, output: 1000 } }, budgets: { perProfileDay: 0.001 } })
    await chat(h, [['alice', 'g1', 'hello']])
    h.server.script({ content: 'nothing' })
    const upkeep = await upkeepOf(h)
    expect(await upkeep.run('test')).to.include({ requests: 1 })
    await chat(h, [['alice', 'g1', 'I have news']])
    const n = h.server.requests.length
    const held = await upkeep.run('test')
    expect(held).to.include({ stopped: 'budget', requests: 0, conversations: 1 })
    expect(held.why).to.include('perProfileDay')
    expect(h.server.requests.length).to.equal(n)
    const state = JSON.parse(await readFile(join(homeOf(h), STATE_FILE), 'utf8'))
    expect(state.through['group:g1'], 'the held message is still new').to.equal(1)
  })

  it('a full disk (a real tmpfs): a proposal that cannot be recorded is write_failed, the ones stored stay whole', async function () {
    tmpfs = await mountTmpfs(this, '8m')
    h = await upkeepRig({ review: 'owner' }, { dataDir: tmpfs })
    await chat(h, [['alice', 'g1', 'I bake bread every Sunday']])
    const upkeep = await upkeepOf(h)
    h.server.script(proposing(req => ({ url: ALICE, append: 'Bakes bread on Sundays.\n', reason: 'r', sources: [sourceOf(req, 'bread')] })))
    expect(await upkeep.run('test')).to.include({ proposed: 1 })
    const before = await readFile(join(homeOf(h), PROPOSALS_FILE), 'utf8')
    await chat(h, [['alice', 'g1', 'and I keep bees']])
    const filler = await fill(tmpfs!, 0)
    h.server.script(proposing(req => ({ url: ALICE, append: 'Keeps bees.\n', reason: 'r', sources: [sourceOf(req, 'bees')] })), { content: 'done' })
    const at = h.server.requests.length
    const report = await upkeep.run('test')
    const [refused] = lastToolValues(h.server.requests[at + 1], 1)
    expect(refused.error.code).to.equal('write_failed')
    expect(refused.error.message).to.not.include(tmpfs!)
    expect(upkeep.proposals().map(p => p.id)).to.deep.equal(['u1'])
    expect(await readFile(join(homeOf(h), PROPOSALS_FILE), 'utf8'), 'the book on disk is whole').to.equal(before)
    expect(report.stopped, 'where it got to could not be stored either').to.equal('failed')
    await rm(filler)
  })
})
