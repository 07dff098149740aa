// The console's upkeep view (SPEC §26): the listeners the page calls list a runtime's proposals
// (target, the change as a diff against the note as it is, reason, the messages the sources point
// to, state, who decided) and its last runs; accept, reject and run now. For a running runtime
// (through its upkeep part and recall's index) and for one that is not running (its home and stored
// histories; a decision starts it, since applying needs memory's writer).
import { expect } from 'chai'
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { registerUpkeep } from '../../src/koishi/console/upkeep'
import { PROPOSALS_FILE } from '../../src/upkeep/proposal-book'
import { captureListeners } from '../support/console-listeners'
import { homeOf } from '../support/faults'
import type { Harness } from '../support/harness'
import { chat, proposing, sourceOf, upkeepOf, upkeepRig } from '../support/upkeep'

const BOT = 'mock:514'
const ALICE = 'local://memory/people/mock/alice.md'
const BOB = 'local://memory/people/mock/bob.md'
const fileOf = (h: Harness, url: string) => join(homeOf(h), 'local', url.slice('local://'.length))
/** a proposal as the page draws it: target, kind, diff lines, state */
const shown = (p: any) => [p.url, p.change.kind, p.change.lines.map((l: any) => `${l.op}${l.text}`), p.state]
/** the id of the proposal of this kind (the model's calls run side by side: ids are in the order they were recorded) */
const idOf = (view: any, kind: string) => view.proposals.find((p: any) => p.change.kind === kind).id

describe('console: the upkeep view', function () {
  this.timeout(30000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  /** alice has a note; alice and bob talk in g1, carol in g2; the run proposes three changes in g1 and none in g2 */
  async function proposed() {
    h = await upkeepRig({ review: 'owner' })
    await mkdir(dirname(fileOf(h, ALICE)), { recursive: true })
    await writeFile(fileOf(h, ALICE), '# alice\nLives in Kyoto.\nLikes tea.\n')
    await chat(h, [['alice', 'g1', 'I moved to Osaka last week'], ['bob', 'g1', 'I play the bass in a jazz band'], ['carol', 'g2', 'morning all']])
    h.server.script(proposing(
      req => ({ url: ALICE, content: '# alice\nLives in Osaka.\nLikes tea.\n', reason: 'she moved', sources: [sourceOf(req, 'Osaka')] }),
      req => ({ url: BOB, append: 'Plays the bass in a jazz band.\n', reason: 'his band', sources: [sourceOf(req, 'bass')] }),
      req => ({ url: ALICE, edit: { find: 'Likes tea.', replace: 'Likes green tea.' }, reason: 'a guess', sources: [sourceOf(req, 'Osaka')] }),
    ), { content: 'nothing to change' })
    const report = await (await upkeepOf(h)).run('schedule')
    expect(report).to.include({ proposed: 3, conversations: 2 })
    return captureListeners(h.app, registerUpkeep)
  }

  it('a running runtime: diffs, sources with their messages, accept and reject, run now', async () => {
    const l = await proposed()
    for (const name of ['kotodama/upkeep', 'kotodama/upkeep-decide', 'kotodama/upkeep-run']) expect(l.got.get(name)!.authority).to.equal(4)
    const view = await l.send('kotodama/upkeep', 'neko', BOT)
    expect(view).to.include({ enabled: true, running: true, review: 'owner', pending: 3 })
    expect(view.proposals.map((p: any) => p.id), 'oldest first').to.deep.equal(['u1', 'u2', 'u3'])
    expect(view.proposals.map(shown)).to.have.deep.members([
      // the new text against the note as it is
      [ALICE, 'content', [' # alice', '-Lives in Kyoto.', '+Lives in Osaka.', ' Likes tea.'], 'pending'],
      [BOB, 'append', ['+Plays the bass in a jazz band.'], 'pending'],
      [ALICE, 'edit', ['-Likes tea.', '+Likes green tea.'], 'pending'],
    ])
    const [content, append, edit] = ['content', 'append', 'edit'].map(k => idOf(view, k))
    const u1 = view.proposals.find((p: any) => p.id === content)
    expect(u1).to.include({ conversation: 'group:g1', reason: 'she moved' })
    expect(u1.change.againstPresent).to.equal(true)
    expect(u1.authors).to.deep.equal([{ id: 'alice', name: 'alice' }])
    expect(u1.sources).to.have.length(1)
    expect(u1.sources[0].url).to.match(/^history:\/\/group%3Ag1\//)
    expect(u1.sources[0].message).to.include({ who: 'alice', uid: 'alice', text: 'I moved to Osaka last week' })
    expect(u1.sources[0].message.time).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)

    expect(await l.send('kotodama/upkeep-decide', 'neko', BOT, content, 'accept')).to.deep.equal({ ok: true, state: 'applied' })
    expect(await readFile(fileOf(h!, ALICE), 'utf8')).to.equal('# alice\nLives in Osaka.\nLikes tea.\n')
    expect(await l.send('kotodama/upkeep-decide', 'neko', BOT, append, 'reject')).to.deep.equal({ ok: true, state: 'rejected' })
    expect(await readFile(fileOf(h!, BOB), 'utf8').catch(() => 'none')).to.equal('none')
    expect((await l.send('kotodama/upkeep-decide', 'neko', BOT, append, 'accept')).error.name).to.equal('Decided')
    expect((await l.send('kotodama/upkeep-decide', 'neko', BOT, 'u7', 'accept')).error.name).to.equal('NotFound')
    expect((await l.send('kotodama/upkeep-decide', 'neko', BOT, edit, 'drop')).error.name).to.equal('Invalid')

    const after = await l.send('kotodama/upkeep', 'neko', BOT)
    // what waits first; then the decided ones, the latest decision first
    expect(after.proposals.map((p: any) => [p.id, p.state, p.decided?.by])).to.deep.equal([
      [edit, 'pending', undefined], [append, 'rejected', 'console'], [content, 'applied', 'console'],
    ])
    expect(after.pending).to.equal(1)
    // a decided content change shows its text, not a diff against what it made
    expect(after.proposals[2].change.lines.map((x: any) => x.op)).to.deep.equal(['+', '+', '+'])

    await chat(h!, [['bob', 'g1', 'we play on Friday']])
    // Run now answers before the model does (a busy day outlasts the page's 60-second wait for an
    // answer); the view shows the run under way until it ends, then its figures
    h!.server.script({ content: 'nothing to change', delayMs: 1500 })
    const run = await l.send('kotodama/upkeep-run', 'neko', BOT)
    expect(run.reason).to.equal('console')
    const during = await l.send('kotodama/upkeep', 'neko', BOT)
    expect(during.underway).to.include({ reason: 'console', startedAt: run.startedAt })
    expect(during.runs, 'not among the runs yet').to.have.length(1)
    expect(await l.send('kotodama/upkeep-run', 'neko', BOT), 'a second press joins it').to.deep.equal(run)
    await h!.until(async () => !(await l.send('kotodama/upkeep', 'neko', BOT)).underway, 'the run ended')
    const runs = (await l.send('kotodama/upkeep', 'neko', BOT)).runs
    expect(runs[0]).to.include({ startedAt: run.startedAt, reason: 'console', conversations: 1, messages: 1, proposed: 0 })
    expect(runs.map((r: any) => [r.reason, r.conversations, r.proposed])).to.deep.equal([['console', 1, 0], ['schedule', 2, 3]])
    expect(runs[0].time).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)
  })

  it('a runtime that is not running: read from its home and stored histories; a decision starts it and applies', async () => {
    const l = await proposed()
    const running = await l.send('kotodama/upkeep', 'neko', BOT)
    await h!.reload()
    expect(await h!.app.kotodama.list(), 'nothing running').to.deep.equal([])
    const stored = await captureListeners(h!.app, registerUpkeep).send('kotodama/upkeep', 'neko', BOT)
    expect(await h!.app.kotodama.list(), 'reading started nothing').to.deep.equal([])
    expect(stored.running).to.equal(false)
    // the same proposals, diffs and messages as the running runtime showed
    expect(stored.proposals).to.deep.equal(running.proposals)
    expect(stored.runs).to.deep.equal(running.runs)

    const l2 = captureListeners(h!.app, registerUpkeep)
    expect(await l2.send('kotodama/upkeep-decide', 'neko', BOT, idOf(stored, 'append'), 'accept')).to.deep.equal({ ok: true, state: 'applied' })
    expect(await readFile(fileOf(h!, BOB), 'utf8')).to.equal('Plays the bass in a jazz band.\n')
    expect((await h!.app.kotodama.list()).length, 'the decision started it').to.equal(1)
  })

  it('a bot that is not connected: nothing starts; a reject is recorded in its home, an accept says why it cannot be made', async () => {
    await proposed()
    await h!.reload()
    // the same home under a bot that is gone (a QQ account the owner took offline)
    const gone = homeOf(h!, 'neko', 'mock:999')
    await cp(join(homeOf(h!), 'upkeep'), join(gone, 'upkeep'), { recursive: true })
    const l = captureListeners(h!.app, registerUpkeep)
    const view = await l.send('kotodama/upkeep', 'neko', 'mock:999')
    const [content, append] = ['content', 'append'].map(k => idOf(view, k))
    expect(await l.send('kotodama/upkeep-decide', 'neko', 'mock:999', append, 'reject')).to.deep.equal({ ok: true, state: 'rejected' })
    expect(JSON.parse(await readFile(join(gone, PROPOSALS_FILE), 'utf8')).proposals[append]).to.deep.include({ state: 'rejected' })
    expect((await l.send('kotodama/upkeep-decide', 'neko', 'mock:999', append, 'reject')).error.name).to.equal('Decided')
    const accepted = await l.send('kotodama/upkeep-decide', 'neko', 'mock:999', content, 'accept')
    expect(accepted.error).to.deep.equal({ name: 'Unavailable', message: 'bot mock:999 is not connected: upkeep runs and applies changes in its running runtime' })
    const run = await l.send('kotodama/upkeep-run', 'neko', 'mock:999').catch((e: Error) => e.message)
    expect(run).to.include('bot mock:999 is not connected')
    expect(await h!.app.kotodama.list(), 'nothing started').to.deep.equal([])
    expect((await l.send('kotodama/upkeep', 'neko', 'mock:999')).proposals.find((p: any) => p.id === content).state).to.equal('pending')
  })

  it('a source whose history was reset shows as missing; a book that cannot be read is reported and left as it was', async () => {
    const l = await proposed()
    const [rt] = await h!.app.kotodama.list()
    await rt.reset('group:g1')
    const view = await l.send('kotodama/upkeep', 'neko', BOT)
    expect(view.proposals.every((p: any) => p.conversation !== 'group:g1' || !p.sources[0].message), 'the reset history names no message').to.equal(true)
    await h!.reload()
    const path = join(homeOf(h!), PROPOSALS_FILE)
    await writeFile(path, '{"proposals": ')
    const listed = await captureListeners(h!.app, registerUpkeep).send('kotodama/upkeep', 'neko', BOT).catch((e: Error) => e.message)
    expect(listed).to.include(PROPOSALS_FILE).and.include('is not valid')
    expect(await readFile(path, 'utf8')).to.equal('{"proposals": ')
  })
})
