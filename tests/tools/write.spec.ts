// The write tool (SPEC §13): its five forms, its errors, the quotas, atomic serialised writes and
// path safety, through the real plugin (Koishi + the AI SDK provider + the fake server), real files
// and the real QuickJS sandbox.
import { expect } from 'chai'
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { toolNamesOf, toolResultsOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'

describe('write (SPEC §13)', function () {
  let h: Harness
  let local: string
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}, more: any = {}) {
    h = await Harness.start({ profile, ...more })
    local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    return local
  }

  /** One step with these direct calls, then finish; the raw results as the model saw them (JSON parsed when possible). */
  async function step(...calls: ReturnType<typeof call>[]): Promise<any[]> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
    await say('bob', `go #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return toolResultsOf(h.server.requests[before + 1]).slice(-calls.length).map(r => parse(r.content))
  }
  const write = async (input: any) => (await step(call('write', input)))[0]
  const read = async (url: string) => (await step(call('read', { url })))[0]
  /** runs one codemode program and returns what the model saw */
  async function program(code: string): Promise<any> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('codemode', { code })] }, { toolCalls: [call('finish', {})] })
    await say('bob', `run #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return parse(toolResultsOf(h.server.requests[before + 1]).at(-1).content)
  }
  const disk = (rel: string) => readFile(join(local, rel), 'utf8')
  /** `user` wakes the mind in a group of their own (a private chat writes no shared file, SPEC §22) */
  const say = (user: string, text: string) => h.client(user, `room-${user}`).receive(`<at id="514"/> ${text}`)

  it('creates a file with its folders, then overwrites it; the result has url, bytes and lines', async () => {
    await start()
    const r = await write({ url: 'local://memory/topics/alice.md', content: 'Alice (u1)\nlikes cats\n' })
    expect(r).to.deep.equal({ ok: true, url: 'local://memory/topics/alice.md', bytes: 22, lines: 2 })
    expect(await disk('memory/topics/alice.md')).to.equal('Alice (u1)\nlikes cats\n')
    const again = await write({ url: 'local://memory/topics/alice.md', content: 'Alice — 猫が好き' })
    expect(again).to.deep.equal({ ok: true, url: 'local://memory/topics/alice.md', bytes: Buffer.byteLength('Alice — 猫が好き'), lines: 1 })
    expect(await disk('memory/topics/alice.md')).to.equal('Alice — 猫が好き')
    expect((await write({ url: 'local://empty.txt', content: '' }))).to.deep.equal({ ok: true, url: 'local://empty.txt', bytes: 0, lines: 0 })
    // the result's url is the canonical one, as the memory index writes it
    expect((await write({ url: 'LOCAL:///memory/topics/alice.md', append: '' })).url).to.equal('local://memory/topics/alice.md')
  })

  it('append creates a missing file and adds to an existing one', async () => {
    await start()
    expect(await write({ url: 'local://memory/log.md', append: 'first\n' })).to.deep.equal({ ok: true, url: 'local://memory/log.md', bytes: 6, lines: 1 })
    expect(await write({ url: 'local://memory/log.md', append: 'second\nthird' })).to.deep.equal({ ok: true, url: 'local://memory/log.md', bytes: 18, lines: 3 })
    expect(await disk('memory/log.md')).to.equal('first\nsecond\nthird')
  })

  it('edit replaces the one exact occurrence; zero is no_match, two is ambiguous_match with the count', async () => {
    await start()
    await writeFile(join(local, 'todo.md'), 'buy milk\ncall Bob\nbuy bread\n')
    expect(await write({ url: 'local://todo.md', edit: { find: 'call Bob', replace: 'called Bob (done)' } }))
      .to.deep.equal({ ok: true, url: 'local://todo.md', bytes: 37, lines: 3 })
    expect(await disk('todo.md')).to.equal('buy milk\ncalled Bob (done)\nbuy bread\n')
    const none = await write({ url: 'local://todo.md', edit: { find: 'call Alice', replace: 'x' } })
    expect(none.ok).to.equal(false)
    expect(none.error.code).to.equal('no_match')
    const two = await write({ url: 'local://todo.md', edit: { find: 'buy ', replace: 'get ' } })
    expect(two.error.code).to.equal('ambiguous_match')
    expect(two.error.matches).to.equal(2)
    expect(two.error.message).to.include('2 times')
    expect(await disk('todo.md')).to.equal('buy milk\ncalled Bob (done)\nbuy bread\n')
    // an empty replace deletes the text
    expect((await write({ url: 'local://todo.md', edit: { find: 'buy bread\n', replace: '' } })).lines).to.equal(2)
    const missing = await write({ url: 'local://nope.md', edit: { find: 'a', replace: 'b' } })
    expect(missing.error.code).to.equal('not_found')
  })

  it('remove deletes a file; moveTo renames it within local:// and returns the new URL', async () => {
    await start()
    await writeFile(join(local, 'a.md'), 'alpha\nbeta\n')
    const moved = await write({ url: 'local://a.md', moveTo: 'local://memory/archive/a%3A1.md' })
    expect(moved).to.deep.equal({ ok: true, url: 'local://memory/archive/a%3A1.md', bytes: 11, lines: 2 })
    expect(existsSync(join(local, 'a.md'))).to.equal(false)
    expect(await disk('memory/archive/a:1.md')).to.equal('alpha\nbeta\n')
    expect(await write({ url: 'local://memory/archive/a%3A1.md', remove: true })).to.deep.equal({ ok: true, url: 'local://memory/archive/a%3A1.md', bytes: 0, lines: 0 })
    expect(existsSync(join(local, 'memory/archive/a:1.md'))).to.equal(false)
    expect((await write({ url: 'local://memory/archive/a%3A1.md', remove: true })).error.code).to.equal('not_found')
    expect((await write({ url: 'local://gone.md', moveTo: 'local://b.md' })).error.code).to.equal('not_found')
  })

  it('moveTo never replaces a file and stays within local://', async () => {
    await start()
    await writeFile(join(local, 'a.md'), 'A')
    await writeFile(join(local, 'b.md'), 'B')
    const over = await write({ url: 'local://a.md', moveTo: 'local://b.md' })
    expect(over.error.code).to.equal('forbidden')
    const away = await write({ url: 'local://a.md', moveTo: 'artifact://read/x.txt' })
    expect(away.error.code).to.equal('forbidden')
    expect([await disk('a.md'), await disk('b.md')]).to.deep.equal(['A', 'B'])
    expect(await write({ url: 'local://a.md', moveTo: 'local://a.md' })).to.deep.equal({ ok: true, url: 'local://a.md', bytes: 1, lines: 1 })
    // spaces around either URL are trimmed alike
    expect(await write({ url: ' local://a.md ', moveTo: ' local://c.md\n' })).to.deep.equal({ ok: true, url: 'local://c.md', bytes: 1, lines: 1 })
  })

  it('bad URLs are invalid_url; read-only schemes are forbidden; a wrong form is explained', async () => {
    await start()
    await mkdir(join(local, 'memory'), { recursive: true })
    const cases: [any, string][] = [
      [{ url: 'local://notes.md:2', content: 'x' }, 'invalid_url'],
      [{ url: 'local://notes.md:x', content: 'x' }, 'invalid_url'],
      [{ url: 'local://notes.md?view=nope', content: 'x' }, 'invalid_url'],
      [{ url: 'local://notes.md?view=meta', content: 'x' }, 'invalid_url'],
      [{ url: 'local://memory', content: 'x' }, 'invalid_url'],
      [{ url: 'local://memory/', content: 'x' }, 'invalid_url'],
      [{ url: 'local://', content: 'x' }, 'invalid_url'],
      [{ url: 'notes.md', content: 'x' }, 'invalid_url'],
      [{ url: 'nope://x', content: 'x' }, 'invalid_url'],
      [{ url: 'local://a%zz.md', content: 'x' }, 'invalid_url'],
      [{ url: 'artifact://read/x.txt', content: 'x' }, 'forbidden'],
      [{ url: 'asset://0190f9f3-0000-7000-8000-000000000000', remove: true }, 'forbidden'],
    ]
    const results = await step(...cases.map(([input]) => call('write', input)))
    expect(results.map(r => r.error?.code)).to.deep.equal(cases.map(([, code]) => code))
    for (const r of results) expect(r.ok).to.equal(false)
    expect(results[10].error.message).to.include('local://')
    expect(await readdir(local)).to.deep.equal(['memory'])
    const [both, none, allNull] = await step(
      call('write', { url: 'local://x.md', content: 'a', append: 'b' }), call('write', { url: 'local://x.md' }),
      call('write', { url: 'local://x.md', content: null, append: null, edit: null, remove: false, moveTo: null }))
    expect(both).to.match(/exactly one of content, append, edit, remove, moveTo/)
    expect(none).to.match(/one of content, append, edit, remove, moveTo/)
    expect(allNull).to.match(/one of content, append, edit, remove, moveTo beside url/)
    expect(existsSync(join(local, 'x.md'))).to.equal(false)
    // fields a model fills with null (or remove: false) are not given: the one real form is made
    const filled: Record<string, unknown> = { content: null, append: null, edit: null, remove: false, moveTo: null }
    expect(await write({ ...filled, url: 'local://x.md', content: 'x\n' })).to.deep.equal({ ok: true, url: 'local://x.md', bytes: 2, lines: 1 })
    expect(await write({ ...filled, url: 'local://x.md', edit: { find: 'x', replace: 'y' } })).to.deep.equal({ ok: true, url: 'local://x.md', bytes: 2, lines: 1 })
    expect(await write({ ...filled, url: 'local://x.md', remove: true })).to.deep.equal({ ok: true, url: 'local://x.md', bytes: 0, lines: 0 })
    // a name the file system cannot hold is a bad URL for both tools, not a disk failure
    const long = `local://memory/${'n'.repeat(300)}.md`
    const tooLong = await write({ url: long, content: 'x' })
    expect(tooLong.error.code).to.equal('invalid_url')
    expect(tooLong.error.message).to.include('too long for the file system')
    expect(await read(long)).to.match(/^invalid_url: .*too long for the file system/)
  })

  it('path escapes get the code read gives them (forbidden or invalid_url) and write nothing', async () => {
    const dir = await start()
    const outside = join(h.dataDir, 'outside')
    await mkdir(outside, { recursive: true })
    await writeFile(join(outside, 'secret.txt'), 'secret')
    await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'))
    await symlink(outside, join(dir, 'out'))
    await symlink(join(outside, 'missing.txt'), join(dir, 'dangling.txt'))
    const urls = [
      'local://../outside/secret.txt', 'local://%2e%2e/outside/secret.txt', 'local://%2E%2E/outside/x.txt',
      'local://sub/../../outside/x.txt', 'local://..%2Foutside%2Fx.txt', 'local://sub%5C..%5Cx.txt',
      'local://link.txt', 'local://out/secret.txt', 'local://out/new.txt', 'local://dangling.txt',
    ]
    const writes = await step(...urls.map(url => call('write', { url, content: 'pwned' })))
    const appends = await step(...urls.map(url => call('write', { url, append: 'pwned' })))
    const reads = await step(...urls.map(url => call('read', { url })))
    for (let i = 0; i < urls.length; i++) {
      const readCode = /^(\w+):/.exec(reads[i])?.[1]
      if (urls[i] === 'local://out/new.txt' || urls[i] === 'local://dangling.txt') expect(readCode, urls[i]).to.equal('not_found')
      else expect(writes[i].error?.code, urls[i]).to.equal(readCode)
      expect(['forbidden', 'invalid_url'], urls[i]).to.include(writes[i].error?.code)
      expect(appends[i].error?.code, urls[i]).to.equal(writes[i].error?.code)
    }
    // symbolic links out of local/ are forbidden, as for read
    expect(writes.slice(6).map(r => r.error.code)).to.deep.equal(['forbidden', 'forbidden', 'forbidden', 'forbidden'])
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).to.equal('secret')
    expect((await readdir(outside)).sort()).to.deep.equal(['secret.txt'])
    const moved = await write({ url: 'local://link.txt', moveTo: 'local://mine.txt' })
    expect(moved.error.code).to.equal('forbidden')
    await writeFile(join(dir, 'mine.txt'), 'mine')
    expect((await write({ url: 'local://mine.txt', moveTo: 'local://out/stolen.txt' })).error.code).to.equal('forbidden')
    expect(await disk('mine.txt')).to.equal('mine')
  })

  describe('quotas (inclusive, all of local/, checked before writing)', () => {
    it('maxFileBytes: the limit itself is accepted, one byte over is too_large', async () => {
      await start({ memory: { maxFileBytes: 10 } })
      expect((await write({ url: 'local://a.txt', content: '0123456789' })).ok).to.equal(true)
      const over = await write({ url: 'local://b.txt', content: '0123456789X' })
      expect(over.error.code).to.equal('too_large')
      expect(over.error.message).to.include('maxFileBytes')
      expect((await write({ url: 'local://a.txt', append: 'X' })).error.code).to.equal('too_large')
      expect((await write({ url: 'local://a.txt', edit: { find: '9', replace: '9X' } })).error.code).to.equal('too_large')
      expect(await disk('a.txt')).to.equal('0123456789')
      expect(existsSync(join(local, 'b.txt'))).to.equal(false)
      // UTF-8 bytes, not characters: 4 × 3 bytes
      expect((await write({ url: 'local://c.txt', content: '猫猫猫猫' })).error.code).to.equal('too_large')
    })

    it('an owner\'s file over maxFileBytes: append and edit are too_large, a shorter content is accepted', async () => {
      await start({ memory: { maxFileBytes: 100 } })
      await writeFile(join(local, 'big.md'), 'b'.repeat(150))
      expect((await write({ url: 'local://big.md', append: 'x' })).error.code).to.equal('too_large')
      expect((await write({ url: 'local://big.md', edit: { find: 'bbb', replace: '' } })).error.code).to.equal('too_large')
      expect(await disk('big.md')).to.equal('b'.repeat(150))
      expect(await write({ url: 'local://big.md', content: 'short' })).to.deep.equal({ ok: true, url: 'local://big.md', bytes: 5, lines: 1 })
    })

    it('maxTotalBytes counts the owner\'s files too; the limit itself is accepted', async () => {
      await start({ memory: { maxTotalBytes: 20 } })
      await writeFile(join(local, 'owner.bin'), Buffer.alloc(12))
      expect((await write({ url: 'local://memory/a.txt', content: '12345678' })).ok).to.equal(true)
      const over = await write({ url: 'local://memory/a.txt', append: 'X' })
      expect(over.error.code).to.equal('too_large')
      expect(over.error.message).to.include('maxTotalBytes')
      expect((await write({ url: 'local://memory/b.txt', content: 'X' })).error.code).to.equal('too_large')
      // a write that grows nothing is allowed, so a full folder can be tidied
      expect((await write({ url: 'local://memory/a.txt', content: '1234' })).ok).to.equal(true)
      expect((await write({ url: 'local://memory/b.txt', content: '1234' })).ok).to.equal(true)
      expect(await disk('memory/a.txt')).to.equal('1234')
    })

    it('maxFiles: the last file fits, one more is too_large; overwrites, moves and removals still work', async () => {
      await start({ memory: { maxFiles: 3 } })
      await writeFile(join(local, 'owner.txt'), 'owner')
      expect((await write({ url: 'local://a.txt', content: 'a' })).ok).to.equal(true)
      expect((await write({ url: 'local://deep/b.txt', append: 'b' })).ok).to.equal(true)
      const over = await write({ url: 'local://c.txt', content: 'c' })
      expect(over.error.code).to.equal('too_large')
      expect(over.error.message).to.include('maxFiles')
      expect((await write({ url: 'local://a.txt', content: 'aa' })).ok).to.equal(true)
      expect((await write({ url: 'local://a.txt', moveTo: 'local://c.txt' })).ok).to.equal(true)
      expect((await write({ url: 'local://c.txt', remove: true })).ok).to.equal(true)
      expect((await write({ url: 'local://d.txt', content: 'd' })).ok).to.equal(true)
      expect(existsSync(join(local, 'c.txt'))).to.equal(false)
    })

    it('a refused write leaves no trace: the old file stays whole and no temporary file is left', async () => {
      await start({ memory: { maxFileBytes: 100 } })
      await write({ url: 'local://memory/core.md', content: 'keep me\n' })
      await write({ url: 'local://memory/core.md', content: 'x'.repeat(101) })
      expect(await disk('memory/core.md')).to.equal('keep me\n')
      expect(await readdir(join(local, 'memory'))).to.deep.equal(['core.md'])
    })
  })

  describe('serialised and atomic', () => {
    it('two writes of one file in one step: no lost update', async () => {
      await start()
      const [a, b] = await step(call('write', { url: 'local://log.md', append: 'one\n' }), call('write', { url: 'local://log.md', append: 'two\n' }))
      expect([a.ok, b.ok]).to.deep.equal([true, true])
      expect((await disk('log.md')).split('\n').filter(Boolean).sort()).to.deep.equal(['one', 'two'])
    })

    it('two conversations of one runtime write one file in steps at the same time: no lost update, no torn file', async () => {
      await start()
      const line = (who: string, i: number) => `${who}-${i}-${'z'.repeat(2000)}\n`
      const calls = (who: string) => Array.from({ length: 5 }, (_, i) => call('write', { url: 'local://shared.md', append: line(who, i) }))
      // both steps are answered together, so their calls run side by side
      let arrived = 0
      let release!: () => void
      const gate = new Promise<void>(r => { release = r })
      const both = async (calls: any[]) => { if (++arrived === 2) release(); await gate; return { toolCalls: calls } }
      h.server.script(() => both(calls('alice')), () => both(calls('bob')))
      h.server.fallback({ toolCalls: [call('finish', {})] })
      await Promise.all([say('alice', 'write'), say('bob', 'write')])
      await h.server.waitForRequests(4)
      await h.settled()
      const lines = (await disk('shared.md')).split('\n').filter(Boolean)
      expect(lines).to.have.length(10)
      for (const l of lines) expect(l).to.match(/^(alice|bob)-\d-z{2000}$/)
      expect(new Set(lines).size).to.equal(10)
    })

    it('a codemode Promise.all of 20 appends and an edit: every update kept, each line whole', async () => {
      await start({ codemode: { enabled: true, direct: [] } })
      await writeFile(join(local, 'count.md'), 'count: 0\n')
      const out = await program(`const writes = []
for (let i = 0; i < 20; i++) writes.push(tools.write({ url: 'local://count.md', append: 'line ' + i + ' ' + 'y'.repeat(5000) + '\\n' }))
writes.push(tools.write({ url: 'local://count.md', edit: { find: 'count: 0', replace: 'count: 20' } }))
const results = await Promise.all(writes)
return results.map(r => r.ok)`)
      expect(out).to.deep.equal(new Array(21).fill(true))
      const lines = (await disk('count.md')).split('\n').filter(Boolean)
      expect(lines[0]).to.equal('count: 20')
      expect(lines.slice(1).map(l => l.replace(/ y+$/, '')).sort()).to.deep.equal(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort())
      for (const l of lines.slice(1)) expect(l).to.match(/^line \d+ y{5000}$/)
    })
  })

  describe('a write, then a read in the same turn', () => {
    it('a program reads what it just wrote, also after a same-size edit of a kept text', async () => {
      await start({ codemode: { enabled: true, direct: [] } })
      const out = await program(`const a = await tools.write({ url: 'local://memory/x.md', content: 'cat\\n' })
const r1 = await tools.read({ url: 'local://memory/x.md' })
await tools.write({ url: 'local://memory/x.md', edit: { find: 'cat', replace: 'dog' } })
const r2 = await tools.read({ url: 'local://memory/x.md' })
await tools.write({ url: 'local://memory/x.md', append: 'fox\\n' })
const r3 = await tools.read({ url: 'local://memory/x.md:2' })
return [a.ok, r1.text, r2.text, r3.text]`)
      expect(out).to.deep.equal([true, 'cat\n', 'dog\n', 'fox\n'])
    })

    it('direct calls: a text kept by read is not served again after a same-size edit, even when the file clock did not move', async () => {
      await start()
      const path = join(local, 'n.md')
      await writeFile(path, 'one\ntwo\n')
      // a coarse file clock (1 s on some file systems) gives the edited file the same size and mtime
      const T = 1_700_000_000
      await utimes(path, T, T)
      expect(await read('local://n.md')).to.equal('one\ntwo\n')
      h.server.script(
        { toolCalls: [call('write', { url: 'local://n.md', edit: { find: 'one', replace: 'uno' } })] },
        async () => { await utimes(path, T, T); return { toolCalls: [call('read', { url: 'local://n.md' })] } },
        { toolCalls: [call('finish', {})] },
      )
      const before = h.server.requests.length
      await say('bob', 'edit then read')
      await h.server.waitForRequests(before + 3)
      await h.settled()
      expect(toolResultsOf(h.server.requests[before + 2]).at(-1).content).to.equal('uno\ntwo\n')
    })
  })

  describe('the catalog', () => {
    it('write is direct, and also in the sandbox when codemode is on; memory.enabled false removes it', async () => {
      await start({ codemode: { enabled: true, direct: [] } })
      h.server.script({ toolCalls: [call('finish', {})] })
      await h.client('bob').receive('hi')
      await h.server.waitForRequests(1)
      const req = h.server.requests[0]
      expect(toolNamesOf(req)).to.include('write')
      const desc = req.body.tools.find((t: any) => t.function.name === 'codemode').function.description
      expect(desc).to.match(/write\(input: \{/)
      // the declaration's comment (the description's first line) says what a program must know: one form per call
      expect(desc).to.include('/** Write your notes in local:// (they survive restarts), one form per call:')
      expect(desc).to.include("Promise<{ ok: true, url: string, bytes: number, lines: number }")
      await h.stop()

      await start({ memory: { enabled: false } })
      const r = await read('local://')
      expect(toolNamesOf(h.server.requests[0])).to.not.include('write')
      expect(r).to.equal('')
    })

    it('a scheme from another plugin may offer a write handler; one without it is read-only', async () => {
      await start()
      const got: any[] = []
      h.app.plugin({
        name: 'notes', inject: ['kotodama'],
        apply: (ctx: any) => {
          ctx.kotodama.registerScheme('notes', () => ({
            scheme: 'notes',
            read: async (url: string) => ({ kind: 'error', url, error: { code: 'not_found', message: 'no' } }),
            bytes: async () => { throw new Error('no bytes') },
            write: async (url: string, request: any) => { got.push({ url, request }); return { ok: true, url, bytes: 3, lines: 1 } },
          }))
          ctx.kotodama.registerScheme('plain', () => ({
            scheme: 'plain',
            read: async (url: string) => ({ kind: 'error', url, error: { code: 'not_found', message: 'no' } }),
            bytes: async () => { throw new Error('no bytes') },
          }))
        },
      })
      await h.idle()
      const [a, b] = await step(call('write', { url: 'notes://x', append: 'abc' }), call('write', { url: 'plain://x', content: 'abc' }))
      expect(a).to.deep.equal({ ok: true, url: 'notes://x', bytes: 3, lines: 1 })
      expect(got).to.deep.equal([{ url: 'notes://x', request: { append: 'abc' } }])
      expect(b.error.code).to.equal('forbidden')
      expect(b.error.message).to.include('local://')
    })
  })
})

function parse(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
