// People (SPEC §21, docs/people.md): a note per person in the opening note of the turns they speak
// in, never the system prompt; private sections shown only in their private chat; bounded reads,
// safe paths, serialised writes, and the config's field paths.
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { messagesOf, toolResultsOf, userTexts } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { configSchema } from '../../src/runtime/config-of-parts'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { DEFAULT_MEMORY } from '../../src/memory/config'
import { DEFAULT_PEOPLE } from '../../src/people/config'
import { Memory } from '../../src/memory/memory'
import { personRel, personUrl } from '../../src/people/people-path'
import { LocalPrivacy } from '../../src/memory/local-privacy'
import { PrivateFiles } from '../../src/memory/private-files'
import { Writers } from '../../src/people/writers'
import { readNoteHead } from '../../src/people/people-notes'

const ROOM = 'room1'

describe('people (SPEC §21)', function () {
  this.timeout(20000)
  let h: Harness
  let local: string
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}) {
    h = await Harness.start({ profile })
    local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(join(local, 'memory', 'people', 'mock'), { recursive: true })
  }
  const note = (id: string, text: string, priv = false) => writeFile(join(local, personRel('mock', id, priv)), text)

  /** One turn woken by `user` (in `channel`, or their private chat) running `calls`; its requests and the calls' results. */
  async function turn(user: string, channel?: string, calls: ReturnType<typeof call>[] = []) {
    const before = h.server.requests.length
    h.server.script(...calls.length ? [{ toolCalls: calls }] : [], { toolCalls: [call('finish', {})] })
    await h.client(user, channel).receive(channel ? `<at id="514"/> hi #${before}` : `hi #${before}`)
    await h.server.waitForRequests(before + (calls.length ? 2 : 1))
    await h.settled()
    const requests = h.server.requests.slice(before)
    const results = calls.length ? toolResultsOf(requests[1]).slice(-calls.length).map(r => parseJson(r.content)) : []
    return { requests, results, system: messagesOf(requests[0])[0].content as string, opening: openingOf(userTexts(requests[0]), `hi #${before}`) }
  }
  /** the people lines of this turn's opening note (it follows the message that woke the turn) */
  function openingOf(text: string, woke: string): string {
    const mine = text.slice(text.lastIndexOf(woke))
    const at = mine.indexOf('[people] notes of the people')
    return at < 0 ? '' : mine.slice(at)
  }

  it('the notes of the people in the new messages open the turn, bounded, with their URLs; absent people are not shown', async () => {
    await start({ people: { noteChars: 40 } })
    await note('bob', 'Bob: likes jazz')
    await note('alice', 'Alice: ' + 'loves long walks and '.repeat(20))
    await note('carol', 'Carol: never here')
    const first = await turn('bob', ROOM)
    expect(first.opening).to.include('- bob (id bob): local://memory/people/mock/bob.md\n  Bob: likes jazz')
    expect(first.opening).to.not.include('Alice')
    await h.client('alice', ROOM).receive('not a mention')
    const second = await turn('bob', ROOM)
    const alice = second.opening.split('\n').find(l => l.startsWith('  Alice'))!
    expect(alice.trim().length).to.be.at.most(40)
    expect(second.opening).to.include(`(${Buffer.byteLength('Alice: ' + 'loves long walks and '.repeat(20))} bytes in all: read the URL for the rest)`)
    expect(second.opening).to.not.include('Carol')
    // a person without a note has the URL to write and "(no note yet)" (SPEC §27) ...
    await h.client('dave', ROOM).receive('hello')
    const third = await turn('bob', ROOM)
    expect(third.opening).to.include('- dave (id dave): local://memory/people/mock/dave.md (no note yet)')
    // ... and an unchanged note shown in a recent opening is not shown again: it is still in the context
    expect(third.opening).to.not.include('Bob: likes jazz')
    // a changed one is
    await note('bob', 'Bob: likes jazz and tea')
    expect((await turn('bob', ROOM)).opening).to.include('Bob: likes jazz and tea')
    // ... an id that is not plain too, its URL encoded
    await h.client('d/ave', ROOM).receive('hello')
    expect((await turn('bob', ROOM)).opening).to.include('- d/ave (id d/ave): local://memory/people/mock/d%252Fave.md (no note yet)')
  })

  it('at most 8 people, the latest speakers', async () => {
    await start()
    for (let i = 0; i < 10; i++) await note(`u${i}`, `U${i}: a note`)
    await note('bob', 'Bob: a note')
    for (let i = 0; i < 10; i++) await h.client(`u${i}`, ROOM).receive(`line ${i}`)
    const { opening } = await turn('bob', ROOM)
    const shown = opening.split('\n').filter(l => l.startsWith('- ')).map(l => l.slice(2, l.indexOf(' (')))
    expect(shown).to.deep.equal(['u3', 'u4', 'u5', 'u6', 'u7', 'u8', 'u9', 'bob'])
  })

  it('a note written with write shows in the next turn; the system prompt is byte-identical with and without notes and people', async () => {
    await start()
    const first = await turn('bob', ROOM, [call('write', { url: 'local://memory/people/mock/bob.md', content: 'Bob: likes jazz\n' })])
    expect(first.results[0]).to.deep.include({ ok: true, url: 'local://memory/people/mock/bob.md' })
    const second = await turn('bob', ROOM)
    expect(second.opening).to.include('Bob: likes jazz')
    // every request of both turns (no notes, then a note; people present or not) has one system prompt
    const systems = [...first.requests, ...second.requests].map(r => messagesOf(r)[0].content)
    expect(new Set(systems).size).to.equal(1)
    expect(second.system).to.not.include('likes jazz')
    const on = second.system
    await h.stop()
    await start({ people: { enabled: false } })
    await note('bob', 'Bob: likes jazz\n')
    const off = await turn('bob', ROOM)
    expect(off.opening).to.equal('')
    // on and off differ only by the people paragraph of the protocol, which names this platform's folder
    const line = on.split('\n').find(l => l.startsWith('People: each person\'s note is'))!
    expect(line).to.include('local://memory/people/mock/<user id>.md')
    expect(on.replace(line + '\n\n', '')).to.equal(off.system)
  })

  it('a write in a private chat goes to the private section, shown only in that chat; a group can neither read nor search it', async () => {
    await start()
    await note('bob', 'Bob: likes jazz')
    const url = 'local://memory/people/mock/bob.md'
    const secret = 'planning a surprise party for alice'
    const priv = await turn('bob', undefined, [call('write', { url, content: secret })])
    expect(priv.results[0]).to.deep.include({ ok: true, url: 'local://memory/people/mock/bob.private.md' })
    expect(await readFile(join(local, 'memory/people/mock/bob.private.md'), 'utf8')).to.equal(secret)
    expect(await readFile(join(local, 'memory/people/mock/bob.md'), 'utf8')).to.equal('Bob: likes jazz')
    // in the private chat: the shared note and the private section
    const again = await turn('bob', undefined, [call('read', { url: 'local://memory/people/mock/bob.private.md' })])
    expect(again.opening).to.include('Bob: likes jazz').and.include(secret).and.include('private section, shown only in this chat')
    expect(JSON.stringify(again.results[0])).to.include(secret)
    // in a group where bob speaks: only the shared note
    const group = await turn('bob', ROOM, [
      call('read', { url: 'local://memory/people/mock/bob.private.md' }),
      call('search', { query: 'surprise party' }),
      call('write', { url: 'local://memory/people/mock/bob.private.md', append: 'x' }),
    ])
    expect(group.opening).to.include('Bob: likes jazz')
    expect(group.opening).to.not.include('surprise').and.not.include('private')
    expect(JSON.stringify(group.results[0])).to.include('forbidden').and.not.include(secret)
    expect(JSON.stringify(group.results[1])).to.not.include('surprise')
    expect(group.results[2]).to.deep.include({ ok: false })
    // nor another person's private chat; and a private chat writes no one else's note
    const alice = await turn('alice', undefined, [
      call('read', { url: 'local://memory/people/mock/bob.private.md' }),
      call('write', { url: 'local://memory/people/mock/bob.md', content: 'overwritten' }),
    ])
    expect(JSON.stringify(alice.results[0])).to.include('forbidden').and.not.include(secret)
    expect(alice.results[1].error.code).to.equal('forbidden')
    expect(await readFile(join(local, 'memory/people/mock/bob.md'), 'utf8')).to.equal('Bob: likes jazz')
  })

  it('the memory index leaves people/ out', async () => {
    await start()
    await note('bob', 'Bob: likes jazz')
    await mkdir(join(local, 'memory', 'topics'), { recursive: true })
    await writeFile(join(local, 'memory', 'topics', 'tea.md'), 'Tea: oolong')
    const { system } = await turn('bob', ROOM)
    expect(system).to.include('local://memory/topics/tea.md')
    expect(system).to.not.include('people/mock/bob.md')
  })

  it('a note of 1 MB is shown bounded; an id with "/" and ".." is a safe path whose URL the mind is told', async () => {
    await start()
    await note('bob', 'B'.repeat(1 << 20))
    const { opening } = await turn('bob', ROOM)
    expect(opening.length).to.be.below(DEFAULT_PEOPLE.noteChars + 300)
    expect(opening).to.include(`(${1 << 20} bytes in all`)
    const odd = '../x'
    const said = await turn(odd, ROOM)
    const url = personUrl('mock', odd)
    expect(url).to.equal('local://memory/people/mock/%252E%252E%252Fx.md')
    expect(said.opening).to.include(url)
    const { results } = await turn(odd, ROOM, [call('write', { url, content: 'odd one' })])
    expect(results[0]).to.deep.include({ ok: true })
    expect(await readdir(join(local, 'memory', 'people', 'mock'))).to.include('%2E%2E%2Fx.md')
    expect(existsSync(join(local, 'memory', 'people', 'x.md'))).to.equal(false)
    expect((await turn(odd, ROOM)).opening).to.include('odd one')
  })

  it('config errors name their field paths and fall back to the defaults', () => {
    const base = (people: unknown) => ({
      models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
      profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], people }],
    })
    expect(configSchema(base(undefined) as any).profiles[0].people).to.deep.equal({ enabled: true, noteChars: 400 })
    const config = configSchema(base({ noteChars: 0 }) as any)
    ;(config.profiles[0].people as any).enabled = 'yes'
    const checked = checkConfig(config)
    expect(checked.profiles[0].people).to.deep.equal(DEFAULT_PEOPLE)
    expect(checked.problems.map(p => p.path)).to.deep.equal(['profiles[0].people.enabled', 'profiles[0].people.noteChars'])
  })
})

describe('people: notes on disk', function () {
  it('readNoteHead reads a bounded head of a large note', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'people-'))
    await writeFile(join(dir, 'big.md'), '猫'.repeat(1 << 19))
    const head = (await readNoteHead(join(dir, 'big.md'), 100))!
    expect(head.text.length).to.equal(100)
    expect(head.text.endsWith('…')).to.equal(true)
    expect(head).to.deep.include({ bytes: 3 << 19, cut: true })
    expect(await readNoteHead(join(dir, 'missing.md'), 100)).to.equal(undefined)
  })

  it('two conversations writing one note at once: both writes are applied', async () => {
    const root = await mkdtemp(join(tmpdir(), 'people-'))
    const guard = new LocalPrivacy('mock', new PrivateFiles(root, root), new Writers(root))
    // bob has written in both rooms: his note is theirs to write
    for (const room of ['group:room0', 'group:room1']) guard.writers.saw(room, personRel('mock', 'bob'))
    const memory = new Memory({ root, config: DEFAULT_MEMORY, texts: { forget() {} } as any, guard })
    const url = personUrl('mock', 'bob')
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}\n`)
    const results = await Promise.all(lines.map((append, i) => memory.write(url, { append }, { scope: { conversation: `group:room${i % 2}`, chat: { channel: `group:room${i % 2}`, direct: false } } })))
    expect(results.every(r => r.ok)).to.equal(true)
    const text = await readFile(join(root, personRel('mock', 'bob')), 'utf8')
    expect(text.split('\n').filter(Boolean).sort()).to.deep.equal(lines.map(l => l.trim()).sort())
  })
})

function parseJson(s: string): any {
  try {
    return JSON.parse(s)
  } catch {
    return s
  }
}
