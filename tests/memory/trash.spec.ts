// Nothing the owner keeps is lost by a member's word (SPEC §22): what write removes or overwrites
// under local:// goes to the runtime home's trash first, restorable; the trash is pruned after
// memory.keepDays and bounded by memory.trashBytes; a trash that cannot keep a file refuses the
// write; the sticker folder is read-only to write. Through the real plugin, a scripted model and
// real files.
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { runtimeHome } from '../../src/runtime/runtime'
import { memoryPart } from '../../src/memory/part'

const DAY = 86_400_000

describe('the trash of local:// (SPEC §22)', function () {
  let h: Harness
  let home: string
  let local: string
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}) {
    h = await Harness.start({ profile })
    home = runtimeHome(h.dataDir, 'neko', 'mock:514')
    local = join(home, 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
  }

  /** One step with these calls as a member asked (bob in a group, or in `channel`: undefined his private chat), then finish; the results. */
  async function calls(channel: string | undefined, list: ReturnType<typeof call>[]): Promise<any[]> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: list }, { toolCalls: [call('finish', {})] })
    await h.client('bob', channel).receive(`${channel ? '<at id="514"/> ' : ''}please tidy up #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return toolResultsOf(h.server.requests[before + 1]).slice(-list.length).map(r => parsed(r.content))
  }
  /** a result as the model saw it: JSON when it is, else its text (a read's error reads `code: message`) */
  const parsed = (s: string) => { try { return JSON.parse(s) } catch { return s } }
  const writes = (...inputs: any[]) => calls('room', inputs.map(i => call('write', i)))

  const memory = async () => (await h.app.kotodama.list())[0].part(memoryPart)!.memory
  const disk = (rel: string) => readFile(join(local, rel), 'utf8')

  it('a removed core.md is in the trash (what, when, from which chat) and restored with its bytes', async () => {
    await start()
    const core = 'I am Neko.\nPromise: the party on Friday.\n'
    await writeFile(join(local, 'memory', 'core.md'), core)
    const [removed] = await writes({ url: 'local://memory/core.md', remove: true })
    expect(removed).to.deep.equal({ ok: true, url: 'local://memory/core.md', bytes: 0, lines: 0 })
    expect(existsSync(join(local, 'memory', 'core.md'))).to.equal(false)
    const m = await memory()
    const [entry, ...more] = await m.trash()
    expect(more).to.have.length(0)
    expect(entry).to.include({ rel: 'memory/core.md', why: 'removed', bytes: Buffer.byteLength(core), conversation: 'group:room' })
    expect(entry.at).to.be.closeTo(Date.now(), 5000)
    // out of local://'s reach: the mind cannot read or write the trash
    expect(entry.id).to.match(/^\d{4}-\d{2}-\d{2}\/\d+-\d+$/)
    expect(await m.restore(entry.id)).to.deep.equal({ url: 'local://memory/core.md' })
    expect(await disk('memory/core.md')).to.equal(core)
    expect(await m.trash()).to.deep.equal([])
    expect(await readdir(join(home, 'trash'))).to.deep.equal([])
    // the next request shows the pinned file again
    const before = h.server.requests.length
    await writes({ url: 'local://memory/notes.md', append: 'x' })
    expect(h.server.requests[before].body.messages[0].content).to.include('Promise: the party on Friday.')
  })

  it('an overwritten or edited note keeps its old version; append and the same bytes again keep nothing; restore beside a taken path', async () => {
    await start()
    await writeFile(join(local, 'memory', 'bob.md'), 'Bob likes jazz\n')
    const [content, edit, append, same] = await writes(
      { url: 'local://memory/bob.md', content: 'Bob is boring\n' },
      { url: 'local://memory/bob.md', edit: { find: 'boring', replace: 'gone' } },
      { url: 'local://memory/bob.md', append: 'really\n' },
      { url: 'local://memory/bob.md', content: 'Bob is gone\nreally\n' },
    )
    for (const r of [content, edit, append, same]) expect(r.ok).to.equal(true)
    const m = await memory()
    const list = await m.trash()
    expect(list.map(e => e.why)).to.deep.equal(['overwritten', 'overwritten'])
    const [newest, oldest] = list
    expect(await readFile(m.keeper.trash.pathOf(oldest), 'utf8')).to.equal('Bob likes jazz\n')
    expect(await readFile(m.keeper.trash.pathOf(newest), 'utf8')).to.equal('Bob is boring\n')
    // the path is taken: the old version goes beside it, the current note untouched
    expect(await m.restore(oldest.id)).to.deep.equal({ url: 'local://memory/bob.restored.md' })
    expect(await m.restore(newest.id)).to.deep.equal({ url: 'local://memory/bob.restored-2.md' })
    expect(await disk('memory/bob.restored.md')).to.equal('Bob likes jazz\n')
    expect(await disk('memory/bob.restored-2.md')).to.equal('Bob is boring\n')
    expect(await disk('memory/bob.md')).to.equal('Bob is gone\nreally\n')
  })

  it('a private chat\'s file is restored private to that chat (a group never reads it)', async () => {
    await start()
    const url = 'local://memory/plans.md'
    expect((await calls(undefined, [call('write', { url, content: 'moving to Osaka in May' })]))[0].ok).to.equal(true)
    expect((await calls(undefined, [call('write', { url, remove: true })]))[0].ok).to.equal(true)
    const m = await memory()
    const [entry] = await m.trash()
    expect(entry.privateTo).to.equal('private:bob')
    await m.restore(entry.id)
    expect(await disk('memory/plans.md')).to.equal('moving to Osaka in May')
    const [inGroup] = await calls('room', [call('read', { url })])
    expect(inGroup).to.match(/^not_found: /)
    const [inPrivate] = await calls(undefined, [call('read', { url })])
    expect(JSON.stringify(inPrivate)).to.include('moving to Osaka in May')
  })

  it('the sticker folder is read-only to write: every form, and moves into or out of it', async () => {
    await start()
    await mkdir(join(local, 'stickers'), { recursive: true })
    await writeFile(join(local, 'stickers', 'cat.png'), 'png bytes')
    await writeFile(join(local, 'memory', 'note.md'), 'a note')
    const results = await writes(
      { url: 'local://stickers/cat.png', remove: true },
      { url: 'local://stickers/cat.png', content: 'x' },
      { url: 'local://stickers/new.md', append: 'x' },
      { url: 'local://stickers/cat.png', moveTo: 'local://memory/cat.png' },
      { url: 'local://memory/note.md', moveTo: 'local://stickers/note.md' },
      { url: 'local://stickers', content: 'x' },
    )
    for (const r of results) {
      expect(r.ok).to.equal(false)
      expect(r.error.code).to.equal('forbidden')
    }
    expect(results[0].error.message).to.equal(
      'local://stickers/cat.png is in the sticker library (local://stickers/), which write cannot change: the owner keeps it')
    expect(await readdir(join(local, 'stickers'))).to.deep.equal(['cat.png'])
    expect(await disk('stickers/cat.png')).to.equal('png bytes')
    expect(await disk('memory/note.md')).to.equal('a note')
  })

  it('entries are pruned after memory.keepDays, in the background (fake clock)', async () => {
    await start({ memory: { keepDays: 2 } })
    const clock: InstalledClock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldClearNativeTimers: true })
    await writeFile(join(local, 'memory', 'old.md'), 'old')
    expect((await writes({ url: 'local://memory/old.md', remove: true }))[0].ok).to.equal(true)
    const m = await memory()
    const [entry] = await m.trash()
    const blob = m.keeper.trash.pathOf(entry)
    expect(existsSync(blob)).to.equal(true)
    await clock.tickAsync(DAY + 1000)
    expect(await m.trash()).to.have.length(1)
    await clock.tickAsync(2 * DAY)
    expect(await m.trash()).to.deep.equal([])
    expect(existsSync(blob)).to.equal(false)
    expect(h.logs.some(l => l.text.includes('pruned 1 entries older than 2 days'))).to.equal(true)
  })

  it('a trash that cannot keep the old bytes refuses the write; nothing is lost', async () => {
    await start()
    await writeFile(join(local, 'memory', 'core.md'), 'keep me')
    // a file where the trash's folder should be: every copy into it fails
    await writeFile(join(home, 'trash'), 'not a folder')
    const [removed, replaced, appended] = await writes(
      { url: 'local://memory/core.md', remove: true },
      { url: 'local://memory/core.md', content: 'gone' },
      { url: 'local://memory/core.md', append: ' and me' },
    )
    for (const r of [removed, replaced]) {
      expect(r.ok).to.equal(false)
      expect(r.error.code).to.equal('write_failed')
      expect(r.error.message).to.match(/^local:\/\/memory\/core\.md: not changed: its old version could not be kept in the trash \(E[A-Z]+\)$/)
    }
    // append loses nothing: it needs no trash
    expect(appended.ok).to.equal(true)
    expect(await disk('memory/core.md')).to.equal('keep me and me')
  })

  it('the trash is bounded by memory.trashBytes: the oldest go first; a file larger than it cannot be removed', async () => {
    await start({ memory: { trashBytes: 30 } })
    await writeFile(join(local, 'memory', 'a.md'), 'a'.repeat(12))
    await writeFile(join(local, 'memory', 'b.md'), 'b'.repeat(12))
    await writeFile(join(local, 'memory', 'c.md'), 'c'.repeat(12))
    await writeFile(join(local, 'memory', 'big.md'), 'x'.repeat(31))
    const [a, b, c, big] = await writes(
      { url: 'local://memory/a.md', remove: true },
      { url: 'local://memory/b.md', remove: true },
      { url: 'local://memory/c.md', remove: true },
      { url: 'local://memory/big.md', remove: true },
    )
    for (const r of [a, b, c]) expect(r.ok).to.equal(true)
    expect(big.error.code).to.equal('too_large')
    expect(big.error.message).to.equal('local://memory/big.md is 31 bytes, more than the trash keeps (memory.trashBytes): write cannot remove or replace it')
    expect(await disk('memory/big.md')).to.have.length(31)
    expect((await (await memory()).trash()).map(e => e.rel)).to.deep.equal(['memory/c.md', 'memory/b.md'])
    expect(h.logs.some(l => l.text.includes('dropped its 1 oldest entries'))).to.equal(true)
  })
})
