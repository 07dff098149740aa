// What one chat learns stays in that chat (SPEC §22): a private chat's files, a person's note where
// that person never wrote, a private section moved out, a private chat's artifacts and assets —
// each written in one chat and looked at from another (the request, read, listings, search,
// codemode's tools), and the same look from the right chat.
import { expect } from 'chai'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { messagesOf, toolResultsOf, userTexts } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'
import { runtimeHome } from '../../src/runtime/runtime'

const G1 = 'g1'
const G2 = 'g2'
const SECRET = 'alice told me privately: allergic to penicillin'

describe('what one chat learns stays in that chat (SPEC §22)', function () {
  this.timeout(30000)
  let h: Harness
  let dataDir: string
  let local: string
  afterEach(async () => {
    await h?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function start(profile: any = {}) {
    dataDir ??= await mkdtemp(join(tmpdir(), 'kotodama-privacy-'))
    h = await Harness.start({ profile, dataDir })
    local = join(runtimeHome(dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
  }
  beforeEach(() => { dataDir = undefined as any })

  /** One turn woken by `user` in `channel` (undefined: their private chat) running `calls`; its requests and the results. */
  async function turn(user: string, channel: string | undefined, calls: ReturnType<typeof call>[] = [], text = 'hi') {
    const before = h.server.requests.length
    h.server.script(...calls.length ? [{ toolCalls: calls }] : [], { toolCalls: [call('finish', {})] })
    await h.client(user, channel).receive(channel ? `<at id="514"/> ${text} #${before}` : `${text} #${before}`)
    await h.server.waitForRequests(before + (calls.length ? 2 : 1))
    await h.settled()
    const requests = h.server.requests.slice(before)
    const results = calls.length ? toolResultsOf(requests[1]).slice(-calls.length).map(r => r.content) : []
    return { requests, results, system: messagesOf(requests[0])[0].content as string, user: userTexts(requests[0]) }
  }
  const parsed = (s: string) => { try { return JSON.parse(s) } catch { return s } }

  it('a file written in a private chat is not in a group\'s memory index, read, listing or search; in that chat it is', async () => {
    await start()
    const priv = await turn('alice', undefined, [
      call('write', { url: 'local://memory/alice-health.md', content: SECRET + '\n' }),
      call('write', { url: 'local://notes/alice-plan.md', content: 'the plan alice shared\n' }),
    ])
    expect(priv.results.map(parsed).map(r => r.ok)).to.deep.equal([true, true])
    const group = await turn('bob', G1, [
      call('read', { url: 'local://memory/alice-health.md' }),
      call('read', { url: 'local://notes/' }),
      call('read', { url: 'local://notes/alice-plan.md' }),
      call('search', { query: 'penicillin' }),
      call('read', { url: 'local://memory/' }),
    ])
    // what the model was shown: the system prompt of each request and the results of its calls
    const systems = JSON.stringify(group.requests.map(r => messagesOf(r)[0].content))
    expect(systems).to.not.include('penicillin').and.not.include('alice-health').and.not.include('alice-plan')
    expect(JSON.stringify(group.results)).to.not.include('penicillin')
    expect(group.results[1]).to.not.include('alice-plan')
    expect(group.results[4]).to.not.include('alice-health')
    expect(group.results[0]).to.include('not_found').and.include('local://memory/alice-health.md does not exist')
    expect(group.results[2]).to.include('not_found')
    // the same looks from alice's private chat
    const again = await turn('alice', undefined, [
      call('read', { url: 'local://memory/alice-health.md' }),
      call('read', { url: 'local://notes/' }),
      call('search', { query: 'penicillin' }),
    ])
    expect(again.system).to.include('local://memory/alice-health.md').and.include(SECRET)
    expect(again.results[0]).to.include(SECRET)
    expect(again.results[1]).to.include('alice-plan.md')
    expect(again.results[2]).to.include('penicillin')
    // another private chat is as far as a group
    const carol = await turn('carol', undefined, [call('read', { url: 'local://memory/alice-health.md' })])
    expect(carol.system).to.not.include('alice-health')
    expect(carol.results[0]).to.include('not_found')
  })

  it('codemode\'s tools.read and tools.search in a group see nothing of a private chat', async () => {
    await start({ codemode: { enabled: true } })
    await turn('alice', undefined, [call('write', { url: 'local://memory/alice-health.md', content: SECRET })])
    const code = 'const a = await tools.read({ url: "local://memory/alice-health.md" }); const s = await tools.search({ query: "penicillin" }); return JSON.stringify([a, s])'
    const group = await turn('bob', G1, [call('codemode', { code })])
    expect(group.results[0]).to.not.include('penicillin')
    expect(group.results[0]).to.include('not_found')
    const priv = await turn('alice', undefined, [call('codemode', { code })])
    expect(priv.results[0]).to.include('penicillin')
  })

  it('a private chat may not write a shared file (core.md): refused, saying where private things go', async () => {
    await start()
    await writeFile(join(local, 'memory', 'core.md'), 'Core: be kind\n')
    const priv = await turn('alice', undefined, [call('write', { url: 'local://memory/core.md', append: SECRET })])
    const r = parsed(priv.results[0])
    expect(r.ok).to.equal(false)
    expect(r.error.code).to.equal('forbidden')
    expect(r.error.message).to.include('local://memory/people/mock/alice.md')
    expect(await readFile(join(local, 'memory', 'core.md'), 'utf8')).to.equal('Core: be kind\n')
    const group = await turn('bob', G1)
    expect(group.system).to.include('Core: be kind').and.not.include('penicillin')
    // nor make it: a pinned file is in every chat's request
    await rm(join(local, 'memory', 'core.md'))
    const make = await turn('alice', undefined, [call('write', { url: 'local://memory/core.md', content: SECRET })])
    expect(parsed(make.results[0]).error.code).to.equal('forbidden')
    expect((await turn('bob', G1)).system).to.include('local://memory/core.md (pinned): does not exist yet')
  })

  it('a folder a private chat made is not listed elsewhere; a group file inside it makes it shared', async () => {
    await start()
    await turn('alice', undefined, [call('write', { url: 'local://alice-divorce/lawyer.md', content: SECRET })])
    const group = await turn('bob', G1, [call('read', { url: 'local://' }), call('read', { url: 'local://alice-divorce/' })])
    expect(group.results[0]).to.not.include('alice-divorce')
    expect(group.results[1]).to.include('not_found')
    expect((await turn('alice', undefined, [call('read', { url: 'local://' })])).results[0]).to.include('alice-divorce/')
    await turn('bob', G1, [call('write', { url: 'local://alice-divorce/public.md', content: 'a public note' })])
    const shared = await turn('bob', G1, [call('read', { url: 'local://alice-divorce/' })])
    expect(shared.results[0]).to.include('public.md').and.not.include('lawyer')
  })

  it('a moved private file stays private after a restart; a group can neither create nor change it', async () => {
    await start()
    await turn('alice', undefined, [
      call('write', { url: 'local://memory/a.md', content: SECRET }),
      call('write', { url: 'local://memory/a.md', moveTo: 'local://memory/b.md' }),
    ])
    await h.stop()
    h = undefined as any
    await start()
    const group = await turn('bob', G1, [
      call('read', { url: 'local://memory/b.md' }),
      call('write', { url: 'local://memory/b.md', content: 'overwritten' }),
      call('write', { url: 'local://memory/b.md', edit: { find: 'penicillin', replace: 'x' } }),
      call('write', { url: 'local://memory/b.md', remove: true }),
    ])
    expect(group.system).to.not.include('b.md')
    expect(group.results[0]).to.include('not_found')
    expect(parsed(group.results[1]).error.code).to.equal('forbidden')
    expect(parsed(group.results[2]).error.code).to.equal('not_found')
    expect(parsed(group.results[3]).error.code).to.equal('not_found')
    expect(await readFile(join(local, 'memory', 'b.md'), 'utf8')).to.equal(SECRET)
    const priv = await turn('alice', undefined, [call('read', { url: 'local://memory/b.md' })])
    expect(priv.system).to.include('local://memory/b.md')
    expect(priv.results[0]).to.include(SECRET)
    // with memory switched off, local:// is read-only and the book still holds
    await h.stop()
    h = undefined as any
    await start({ memory: { enabled: false } })
    const off = await turn('bob', G1, [call('read', { url: 'local://memory/b.md' }), call('read', { url: 'local://memory/' })])
    expect(off.results[0]).to.include('not_found')
    expect(off.results[1]).to.not.include('b.md')
  })

  it('the people folder lists no private section outside its chat; a private section cannot be moved out, nor a file onto one', async () => {
    await start()
    await turn('alice', G1)
    await turn('alice', undefined, [call('write', { url: 'local://memory/people/mock/alice.md', content: SECRET })])
    const group = await turn('alice', G1, [call('read', { url: 'local://memory/people/mock/' })])
    expect(group.results[0]).to.not.include('private')
    const priv = await turn('alice', undefined, [
      call('read', { url: 'local://memory/people/mock/' }),
      call('write', { url: 'local://memory/people/mock/alice.private.md', moveTo: 'local://memory/notes/x.md' }),
      call('write', { url: 'local://memory/people/mock/alice.md', moveTo: 'local://memory/notes/y.md' }),
      call('write', { url: 'local://memory/z.md', content: 'z' }),
      call('write', { url: 'local://memory/z.md', moveTo: 'local://memory/people/mock/alice.private.md' }),
    ])
    expect(priv.results[0]).to.include('alice.private.md')
    for (const r of priv.results.slice(1, 3)) expect(parsed(r).error.code).to.equal('forbidden')
    expect(parsed(priv.results[4]).error.code).to.equal('forbidden')
    expect(await readFile(join(local, 'memory', 'people', 'mock', 'alice.private.md'), 'utf8')).to.equal(SECRET)
  })

  it('a person\'s note is read and found only where that person has written', async () => {
    await start()
    const g2 = await turn('bob', G2, [call('write', { url: 'local://memory/people/mock/bob.md', content: 'Bob: likes free jazz\n' })])
    expect(parsed(g2.results[0]).ok).to.equal(true)
    const g1 = await turn('carol', G1, [
      call('search', { query: 'jazz' }),
      call('read', { url: 'local://memory/people/mock/bob.md' }),
      call('read', { url: 'local://memory/people/mock/' }),
    ])
    expect(g1.results[0]).to.not.include('jazz')
    expect(g1.results[1]).to.include('not_found')
    expect(g1.results[2]).to.not.include('bob.md')
    // nor written there: whether the note exists or not, the same answer
    const written = await turn('carol', G1, [
      call('write', { url: 'local://memory/people/mock/bob.md', append: 'carol says hi' }),
      call('write', { url: 'local://memory/people/mock/nobody.md', content: 'x' }),
    ])
    const [a, b] = written.results.map(parsed)
    expect([a.error.code, b.error.code]).to.deep.equal(['forbidden', 'forbidden'])
    expect(a.error.message.replace('bob', 'nobody')).to.equal(b.error.message)
    expect(await readFile(join(local, 'memory', 'people', 'mock', 'bob.md'), 'utf8')).to.equal('Bob: likes free jazz\n')
    const back = await turn('carol', G2, [call('search', { query: 'jazz' }), call('read', { url: 'local://memory/people/mock/bob.md' })])
    expect(back.results[0]).to.include('jazz')
    expect(back.results[1]).to.include('free jazz')
  })

  it('a private chat\'s archived result is not_found from a group, as a name that does not exist', async () => {
    await start({ codemode: { enabled: true, direct: ['read'] } })
    const code = 'return "penicillin ".repeat(4000)'
    const priv = await turn('alice', undefined, [call('codemode', { code })])
    const url = /artifact:\/\/codemode\/[0-9a-f]{20}\.txt/.exec(priv.results[0])?.[0]
    expect(url, priv.results[0]).to.be.a('string')
    const missing = url!.replace(/[0-9a-f]{20}/, '0'.repeat(20))
    const group = await turn('bob', G1, [
      call('read', { url: url! }), call('read', { url: `${url}?view=meta` }), call('read', { url: missing }),
      call('codemode', { code: `return JSON.stringify(await tools.read({ url: ${JSON.stringify(url)} }))` }),
    ])
    expect(group.results[0]).to.not.include('penicillin')
    // the same words as a name that was never made
    expect(group.results[0]).to.equal(`not_found: ${url} does not exist`)
    expect(group.results[1]).to.equal(`not_found: ${url}?view=meta does not exist`)
    expect(group.results[2]).to.equal(`not_found: ${missing} does not exist`)
    expect(group.results[3]).to.not.include('penicillin')
    const back = await turn('alice', undefined, [call('read', { url: url! })])
    expect(back.results[0]).to.include('penicillin')
  })

  /** alice sends `png` in her private chat; the asset URL the model was shown */
  async function privateImage(png: Buffer): Promise<string> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', undefined).receive(`look <img src="data:image/png;base64,${png.toString('base64')}"/>`)
    await h.server.waitForRequests(before + 1)
    await h.settled()
    const asset = /asset:\/\/[0-9a-f-]{36}/.exec(JSON.stringify(h.server.requests[before].body))?.[0]
    expect(asset).to.be.a('string')
    return asset!
  }

  it('a private chat\'s asset is unreadable and unsendable from a group, and no vision model is asked about it', async () => {
    await start({ attachment: { visionModel: 'main' } })
    const asset = await privateImage(tinyPng(0x336699))
    const group = await turn('bob', G1, [
      call('read', { url: asset }),
      call('read', { url: `${asset}?view=meta` }),
      call('send_message', { messages: [`<img src="${asset}"/>`] }),
      call('read', { url: `${asset}?question=what colour is it` }),
    ])
    expect(group.results[0]).to.equal(`not_found: ${asset} does not exist`)
    expect(group.results[1]).to.equal(`not_found: ${asset}?view=meta does not exist`)
    expect(parsed(group.results[2]).ok).to.equal(false)
    expect(group.results[3]).to.include('not_found')
    // the turn's two steps, and no vision request between them
    expect(group.requests).to.have.length(2)
    expect(h.sent.filter(s => s.channel === G1).map(s => s.content).join('\n')).to.not.include('data:image')
    const back = await turn('alice', undefined, [call('read', { url: `${asset}?view=meta` })])
    expect(back.results[0]).to.include('image/png')
  })

  it('an asset URL typed into a group claims nothing; the same picture sent there is readable there', async () => {
    await start()
    const png = tinyPng(0x993366)
    const asset = await privateImage(png)
    const typed = await turn('bob', G1, [call('read', { url: `${asset}?view=meta` })], `look at ${asset}`)
    expect(typed.results[0]).to.include('not_found')
    // bob posts the same picture in the group: the group received it too
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('read', { url: `${asset}?view=meta` })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob', G1).receive(`<at id="514"/> mine <img src="data:image/png;base64,${png.toString('base64')}"/>`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    expect(JSON.stringify(h.server.requests[before].body)).to.include(asset)
    expect(toolResultsOf(h.server.requests[before + 1]).at(-1)!.content).to.include('image/png')
    expect((await turn('alice', undefined, [call('read', { url: `${asset}?view=meta` })])).results[0]).to.include('image/png')
  })

  it('media a tool returned in a private chat are stored as that chat\'s artifacts', async () => {
    await start()
    await writeFile(join(local, 'pic.png'), tinyPng(0x445566))
    const priv = await turn('alice', undefined, [call('read', { url: 'local://pic.png' })])
    const url = /artifact:\/\/[\w-]+\/[0-9a-f]{20}\.png/.exec(JSON.stringify(priv.requests[1].body))?.[0]
    expect(url).to.be.a('string')
    const group = await turn('bob', G1, [call('read', { url: `${url}?view=meta` })])
    expect(group.results[0]).to.equal(`not_found: ${url}?view=meta does not exist`)
    expect((await turn('alice', undefined, [call('read', { url: `${url}?view=meta` })])).results[0]).to.include('image/png')
  })

  it('artifacts and assets stored before owners were recorded stay readable everywhere', async () => {
    await start()
    await turn('carol', G2)
    const runtime = (await h.app.kotodama.list())[0]
    const old = await runtime.artifacts.write({ namespace: 'read', data: 'an archive of before: oolong tea', mediaType: 'text/plain' })
    const id = await runtime.assets.register(`data:image/png;base64,${tinyPng(0x112233).toString('base64')}`, {}, { owner: 'private:alice' })
    // an asset of before has no owners file
    await rm(join(runtimeHome(dataDir, 'neko', 'mock:514'), 'assets', `${id}.owners`))
    await h.stop()
    await start()
    const group = await turn('bob', G1, [call('read', { url: old }), call('read', { url: `asset://${id}?view=meta` })])
    expect(group.results[0]).to.include('oolong tea')
    expect(group.results[1]).to.include('image/png')
  })
})
