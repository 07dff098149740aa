// Memory in every request (SPEC §13): the pinned files and the index of local://memory/ after the
// protocol, within 8,000 UTF-16 units, kept from a cache; restart and status.
import { expect } from 'chai'
import fs from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { mock as nodeMock } from 'node:test'
import { Harness, call } from '../support/harness'
import { toolNamesOf, toolResultsOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { MEMORY_BUDGET, memorySection, type IndexEntry } from '../../src/memory/section'
import { walkNotes, walkSync } from '../../src/memory/walk'

describe('memory in every request (SPEC §13)', function () {
  let h: Harness
  let local: string
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}, dataDir?: string) {
    h = await Harness.start({ profile, trust: { owners: ['mock:bob'] }, ...(dataDir ? { dataDir } : {}) })
    local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
  }

  /** One turn: these steps (lists of calls), then finish. Returns the system prompts of its requests. */
  async function turn(...steps: ReturnType<typeof call>[][]): Promise<string[]> {
    const before = h.server.requests.length
    h.server.script(...steps.map(calls => ({ toolCalls: calls })), { toolCalls: [call('finish', {})] })
    // in a group: a private chat's notes are its own, and it makes no pinned file (SPEC §22)
    await h.client('bob', 'room').receive(`<at id="514"/> turn #${before}`)
    await h.server.waitForRequests(before + steps.length + 1)
    await h.settled()
    return h.server.requests.slice(before).map(r => r.body.messages[0].content)
  }

  /** The memory section of a system prompt: from its heading to the line that says who the bot is. */
  function sectionOf(system: string): string {
    const at = system.indexOf('## Memory\n')
    if (at < 0) return ''
    return system.slice(at, system.indexOf('\n\n## Where you are', at))
  }

  it('a note written in one step is in the next request: the pinned file in full, the others in the index', async () => {
    await start()
    const [first, second] = await turn([
      call('write', { url: 'local://memory/core.md', content: 'I am Neko.\nPromise: remind Bob of the party on Friday.\n' }),
      call('write', { url: 'local://memory/topics/bob.md', content: 'Bob (u-bob): likes jazz\nbirthday in May\n' }),
    ])
    expect(sectionOf(first)).to.include('### local://memory/core.md (pinned): does not exist yet; create it with write')
    expect(sectionOf(first)).to.include('### Index of local://memory/: no notes yet')
    const memory = sectionOf(second)
    expect(memory).to.include('### local://memory/core.md (pinned, 55 bytes)\nI am Neko.\nPromise: remind Bob of the party on Friday.')
    expect(memory).to.include('### Index of local://memory/ (1 file)\n- local://memory/topics/bob.md (40 bytes): Bob (u-bob): likes jazz')
    // after the protocol (which explains memory), before who the bot is
    const protocolAt = second.indexOf('## How you live in this chat')
    expect(second.indexOf('Memory: local://memory/ keeps what must outlive')).to.be.greaterThan(protocolAt)
    expect(second.indexOf('## Memory\n')).to.be.greaterThan(second.indexOf('Memory: local://memory/ keeps what must outlive'))
    expect(second.indexOf('\n\n## Where you are')).to.be.greaterThan(second.indexOf('## Memory\n'))
  })

  it('with many files the section keeps to 8,000 units and names what does not fit with a read call', async () => {
    await start({ memory: { maxFiles: 2000 } })
    await mkdir(join(local, 'memory', 'topics'), { recursive: true })
    for (let i = 0; i < 1000; i++) {
      await writeFile(join(local, 'memory', 'topics', `p${String(i).padStart(4, '0')}.md`), `Person ${i}: ${'likes many things, '.repeat(3)}\nmore\n`)
    }
    const core = Array.from({ length: 600 }, (_, i) => `core line ${i}: ${'keep this in mind. '.repeat(2)}`).join('\n') + '\n'
    await writeFile(join(local, 'memory', 'core.md'), core)
    const [system] = await turn()
    const memory = sectionOf(system)
    expect(memory.length).to.be.at.most(MEMORY_BUDGET)
    expect(memory.length).to.be.greaterThan(MEMORY_BUDGET - 300)
    // the pinned file is cut with the paging engine's note; its read call continues it exactly
    const note = /\[truncated; to continue, call read\(\{url: "(local:\/\/memory\/core\.md\?offset=(\d+))"\}\)\]/.exec(memory)
    expect(note, memory.slice(0, 300)).to.not.equal(null)
    const shown = memory.slice(memory.indexOf('(pinned, '), note.index)
    const body = shown.slice(shown.indexOf('\n') + 1).replace(/\n$/, '')
    expect(core.startsWith(body)).to.equal(true)
    const index = new RegExp('### Index of local://memory/ \\(1000 files\\)\\n((?:- .*\\n)*)'
      + '\\[(\\d+) more files not listed; read\\(\\{url: "local://memory/"\\}\\) lists the folder\\]$').exec(memory)
    expect(index, memory.slice(-500)).to.not.equal(null)
    const listed = index[1].split('\n').filter(Boolean)
    expect(listed.length + Number(index[2])).to.equal(1000)
    expect(listed[0]).to.equal('- local://memory/topics/p0000.md (73 bytes): Person 0: likes many things, likes many things, likes many things,')
    const [again] = await turn([call('read', { url: note[1] })])
    const rest = toolResultsOf(h.server.requests.at(-1)).at(-1).content
    expect(core.slice(0, Number(note[2])) + rest).to.equal(core)
    expect(sectionOf(again)).to.equal(memory)
  })

  it('requests are built from the cache: no folder is listed again while nothing changed', async () => {
    await start()
    await turn([call('write', { url: 'local://memory/a.md', content: 'alpha\n' })])
    const listings = nodeMock.method(fs, 'readdirSync')
    const reads = nodeMock.method(fs, 'readFileSync')
    try {
      const systems = await turn([call('read', { url: 'local://memory/a.md' })], [call('read', { url: 'local://memory/a.md' })])
      for (const s of systems) expect(sectionOf(s)).to.include('- local://memory/a.md (6 bytes): alpha')
      expect(listings.mock.callCount()).to.equal(0)
      expect(reads.mock.callCount()).to.equal(0)
    } finally {
      listings.mock.restore()
      reads.mock.restore()
    }
  })

  it('files the owner adds, and a pinned file the owner edits, show at the next turn', async () => {
    await start()
    await turn([call('write', { url: 'local://memory/core.md', content: 'v1\n' }), call('write', { url: 'local://memory/old.md', content: 'old\n' })])
    await writeFile(join(local, 'memory', 'from-owner.md'), 'Owner: the bot should greet Carol\n')
    await mkdir(join(local, 'memory', 'projects'))
    await writeFile(join(local, 'memory', 'projects', 'garden.md'), 'Garden: tomatoes in May\n')
    await rm(join(local, 'memory', 'old.md'))
    await writeFile(join(local, 'memory', 'core.md'), 'v2, edited by the owner\n')
    const [system] = await turn()
    const memory = sectionOf(system)
    expect(memory).to.include('- local://memory/from-owner.md (34 bytes): Owner: the bot should greet Carol')
    expect(memory).to.include('(pinned, 24 bytes)\nv2, edited by the owner')
    expect(memory).to.include('- local://memory/projects/garden.md (24 bytes): Garden: tomatoes in May')
    expect(memory).to.not.include('old.md')
    expect(memory).to.include('(2 files)')
  })

  it('a note the owner turns into a folder of the same name leaves the index and the count', async () => {
    await start({ memory: { pinned: [] } })
    await turn([call('write', { url: 'local://memory/garden', content: 'Garden: tomatoes\n' })])
    await rm(join(local, 'memory', 'garden'))
    await mkdir(join(local, 'memory', 'garden'))
    await writeFile(join(local, 'memory', 'garden', 'beans.md'), 'Beans in June\n')
    const [system] = await turn()
    expect(sectionOf(system)).to.include('### Index of local://memory/ (1 file)\n- local://memory/garden/beans.md (14 bytes): Beans in June')
    const [status] = await h.client('bob').receive('kotodama.status')
    expect(status, status).to.match(/memory \(local:\/\/\): 1 files?, 14 bytes/)
  })

  it('a restart keeps the notes, the section and the quotas\' count', async () => {
    await start({ memory: { maxFiles: 2 } })
    await turn([call('write', { url: 'local://memory/core.md', content: 'remember me\n' }), call('write', { url: 'local://memory/x.md', content: 'x\n' })])
    await h.reload()
    const [system] = await turn([call('read', { url: 'local://memory/core.md' }), call('write', { url: 'local://memory/y.md', content: 'y' })])
    expect(sectionOf(system)).to.include('(pinned, 12 bytes)\nremember me')
    expect(sectionOf(system)).to.include('- local://memory/x.md (2 bytes): x')
    const [read, refused] = toolResultsOf(h.server.requests.at(-1)).slice(-2).map(r => r.content)
    expect(read).to.equal('remember me\n')
    expect(JSON.parse(refused).error.code).to.equal('too_large')
  })

  it('kotodama.status shows each runtime\'s memory size and file count', async () => {
    await start()
    await writeFile(join(local, 'owner.txt'), '12345')
    await turn([call('write', { url: 'local://memory/core.md', content: 'abc' })])
    const [status] = await h.client('bob').receive('kotodama.status')
    expect(status, status).to.include('memory (local://): 2 files, 8 bytes (limits 1000 files, 67108864 bytes)')
  })

  it('a file pinned twice, under two spellings of its URL, is shown once', async () => {
    await start({ memory: { pinned: ['local://memory/core.md', 'LOCAL:///memory/core.md', 'local://memory/other.md'] } })
    await mkdir(join(local, 'memory'), { recursive: true })
    await writeFile(join(local, 'memory', 'core.md'), 'only once\n')
    const [system] = await turn()
    expect(sectionOf(system).split('only once')).to.have.length(2)
    expect(sectionOf(system)).to.include('### local://memory/other.md (pinned): does not exist yet')
  })

  it('switches: index off shows only pinned files; memory off shows no section, no paragraph, no write', async () => {
    await start({ memory: { index: false, pinned: ['local://memory/core.md', 'local://notes/todo.md'] } })
    await mkdir(join(local, 'notes'), { recursive: true })
    await writeFile(join(local, 'notes', 'todo.md'), 'water the plants\n')
    await writeFile(join(local, 'memory-x.md'), 'x')
    let [system] = await turn()
    expect(sectionOf(system)).to.include('### local://notes/todo.md (pinned, 17 bytes)\nwater the plants')
    expect(sectionOf(system)).to.not.include('Index of')
    expect(system).to.include('The pinned files in full, then an index of local://memory/')
    await h.stop()

    // nothing pinned and no index: no section, and the protocol does not promise one
    await start({ memory: { index: false, pinned: [] } })
    ;[system] = await turn()
    expect(system).to.include('Keep it with write')
    expect(system).to.not.include('## Memory')
    expect(system).to.not.include('follow below')
    expect(toolNamesOf(h.server.requests[0])).to.include('write')
    await h.stop()

    await start({ memory: { enabled: false } })
    ;[system] = await turn()
    expect(system).to.not.include('## Memory')
    expect(system).to.not.include('local://memory/')
    expect(toolNamesOf(h.server.requests[0])).to.not.include('write')
  })
})

describe('memorySection (pure)', () => {
  const entries = (n: number, line = 'first line'): IndexEntry[] =>
    Array.from({ length: n }, (_, i) => ({ url: `local://memory/n${String(i).padStart(5, '0')}.md`, bytes: 100 + i, firstLine: line }))

  it('never exceeds the budget, whatever the mix, and counts every file it leaves out', () => {
    for (const files of [0, 1, 10, 100, 1000, 5000]) {
      for (const pinnedUnits of [0, 100, 3000, 7900, 20000]) {
        const pinned = pinnedUnits ? [{ url: 'local://memory/core.md', text: 'p'.repeat(pinnedUnits), bytes: pinnedUnits }] : []
        const text = memorySection({ pinned, index: entries(files), folder: 'local://memory/' })
        expect(text.length, `${files} files, ${pinnedUnits} pinned`).to.be.at.most(MEMORY_BUDGET)
        const listed = text.split('\n').filter(l => l.startsWith('- local://memory/')).length
        const more = /\[(\d+) more files? not listed/.exec(text)
        expect(listed + Number(more?.[1] ?? 0), `${files} files, ${pinnedUnits} pinned`).to.equal(files)
      }
    }
  })

  it('shows a pinned file that is too long for what is left as much as fits, or names it', () => {
    const text = memorySection({
      pinned: [{ url: 'local://a.md', text: 'a'.repeat(5000), bytes: 5000 }, { url: 'local://b.md', text: 'b'.repeat(5000), bytes: 5000 }],
      folder: 'local://memory/',
    })
    expect(text).to.include('### local://a.md (pinned, 5000 bytes)\n' + 'a'.repeat(5000))
    expect(text).to.match(/### local:\/\/b\.md \(pinned, 5000 bytes\)\nb+\n\[truncated; to continue, call read\(\{url: "local:\/\/b\.md\?offset=\d+"\}\)\]$/)
    expect(text.length).to.be.at.most(MEMORY_BUDGET)
    const tight = memorySection({
      pinned: [
        { url: 'local://a.md', text: 'a'.repeat(7600), bytes: 7600 }, { url: 'local://b.md', text: 'b', bytes: 1 },
        { url: 'local://c.md', text: 'c'.repeat(900), bytes: 900 },
      ],
      folder: 'local://memory/', budget: 8000,
    })
    expect(tight).to.include('### local://b.md (pinned, 1 byte)\nb')
    expect(tight).to.include('### local://c.md (pinned, 900 bytes): over the memory budget; read({url: "local://c.md"})')
  })

  it('many pinned files over the budget never push the index out; each is still named with a read call', () => {
    const pinned = [{ url: 'local://memory/core.md', text: 'c'.repeat(20000), bytes: 20000 }]
    for (let i = 0; i < 12; i++) pinned.push({ url: `local://memory/pinned-note-with-a-long-name-${i}.md`, text: 'p'.repeat(3000), bytes: 3000 })
    const text = memorySection({ pinned, index: entries(50), folder: 'local://memory/' })
    expect(text.length).to.be.at.most(MEMORY_BUDGET)
    expect(text).to.include('### Index of local://memory/ (50 files)')
    expect(text).to.match(/\[\d+ more files? not listed; read\(\{url: "local:\/\/memory\/"\}\) lists the folder\]/)
    for (let i = 0; i < 12; i++) expect(text).to.include(`read({url: "local://memory/pinned-note-with-a-long-name-${i}.md"})`)
  })
})

describe('the walk of local/memory/ (SPEC §13, §17)', () => {
  it('lists regular files in name order, folders included, links left out, and stops at its limit, run either way', async () => {
    const dir = await fs.promises.mkdtemp(join(tmpdir(), 'kotodama-walk-'))
    try {
      await mkdir(join(dir, 'people'), { recursive: true })
      await writeFile(join(dir, 'b.md'), 'bee\n')
      await writeFile(join(dir, 'a.md'), 'a\n')
      await writeFile(join(dir, 'people', 'bob.md'), 'likes tea\n')
      await fs.promises.symlink(join(dir, 'a.md'), join(dir, 'link.md'))
      await fs.promises.symlink(dir, join(dir, 'loop'))
      const all = await walkNotes(dir)
      expect(all.map(f => [f.rel, f.size])).to.deep.equal([['a.md', 2], ['b.md', 4], ['people/bob.md', 10]])
      expect((await walkNotes(dir, { limit: 2 })).map(f => f.rel)).to.deep.equal(['a.md', 'b.md'])
      expect(await walkNotes(join(dir, 'missing'))).to.deep.equal([])
      // memory's cache runs the same walk synchronously, and may pass folders by
      expect(walkSync(dir).files).to.deep.equal(all)
      const some = walkSync(dir, { folders: true, enter: rel => rel !== 'people' })
      expect([some.files.map(f => f.rel), some.folders.map(f => f.rel), some.passed]).to.deep.equal([['a.md', 'b.md'], [''], ['people']])
      expect(walkSync(dir, { from: 'people', folders: true }).files.map(f => f.rel)).to.deep.equal(['people/bob.md'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
