// The write tool (SPEC §13): its five forms, its errors, the quotas, atomic serialised writes and
// path safety, through the real plugin (Koishi + the AI SDK provider + the fake server), real files
// and the real QuickJS sandbox.
import { expect } from 'chai'
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Harness, call } from './support/harness'
import { toolNamesOf, toolResultsOf } from './support/fake-openai'
import { runtimeHome } from '../src/runtime/runtime'

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
    await h.client('bob').receive(`go #${before}`)
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
    await h.client('bob').receive(`run #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return parse(toolResultsOf(h.server.requests[before + 1]).at(-1).content)
  }
  const disk = (rel: string) => readFile(join(local, rel), 'utf8')

  it('creates a file with its folders, then overwrites it; the result has url, bytes and lines', async () => {
    await start()
    const r = await write({ url: 'local://memory/people/alice.md', content: 'Alice (u1)\nlikes cats\n' })
    expect(r).to.deep.equal({ ok: true, url: 'local://memory/people/alice.md', bytes: 22, lines: 2 })
    expect(await disk('memory/people/alice.md')).to.equal('Alice (u1)\nlikes cats\n')
    const again = await write({ url: 'local://memory/people/alice.md', content: 'Alice — 猫が好き' })
    expect(again).to.deep.equal({ ok: true, url: 'local://memory/people/alice.md', bytes: Buffer.byteLength('Alice — 猫が好き'), lines: 1 })
    expect(await disk('memory/people/alice.md')).to.equal('Alice — 猫が好き')
    expect((await write({ url: 'local://empty.txt', content: '' }))).to.deep.equal({ ok: true, url: 'local://empty.txt', bytes: 0, lines: 0 })
  })
})

function parse(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
