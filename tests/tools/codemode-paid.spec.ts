// SPEC §22 "Loops cost nothing": paid host calls inside one codemode program are at most
// codemode.maxPaidCalls [10]. Through the real QuickJS sandbox, the real read tool and a fake
// vision server (an OpenAI-compatible model on 127.0.0.1): only that many questions reach it.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'
import { Harness, call } from '../support/harness'
import { FakeOpenAI, toolResultsOf } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'

const model = (id: string, baseURL: string) => ({ id, baseURL, apiKey: `sk-${id}`, model: `${id}-model`, maxRetries: 0, timeoutMs: 5000 })

describe('codemode: paid calls per program (SPEC §22)', function () {
  let h: Harness | undefined
  let eye: FakeOpenAI
  afterEach(async () => {
    await h?.stop()
    h = undefined
    await eye?.close()
  })

  async function start(codemode?: object) {
    eye = await FakeOpenAI.start()
    eye.fallback({ content: 'a single dark pixel' })
    h = await Harness.start({
      extraModels: [model('eye', eye.baseURL)],
      profile: { codemode: { enabled: true, direct: [] }, attachment: { visionModel: 'eye' } },
      ...(codemode ? { codemode } : {}),
    })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), tinyPng(0, 1, 1))
  }

  /** Runs one program through the model; the program's result as the model saw it. */
  async function program(code: string): Promise<any> {
    h!.server.script({ toolCalls: [call('codemode', { code })] }, { toolCalls: [call('finish', {})] })
    await h!.client('bob').receive('look at the dot')
    await h!.server.waitForRequests(2)
    await h!.settled()
    return JSON.parse(toolResultsOf(h!.server.requests[1]).at(-1).content)
  }

  // 30 distinct questions at once: none is answered from the cache
  const THIRTY = `
    const asked = Array.from({ length: 30 }, (_, i) => tools.read({ url: 'local://dot.png?question=what is pixel ' + i + '?' }))
    const got = await Promise.all(asked)
    return {
      answers: got.filter(r => r.kind === 'answer').length,
      refused: got.filter(r => r.kind === 'error' && r.error.name === 'PaidCallLimit').length,
      error: got.find(r => r.kind === 'error')?.error,
    }`

  it('30 vision questions in one program: 10 reach the vision server, 20 return PaidCallLimit, the program finishes', async () => {
    await start()
    const out = await program(THIRTY)
    expect(out).to.deep.include({ answers: 10, refused: 20 })
    expect(out.error).to.include({ name: 'PaidCallLimit', code: 'paid_call_limit' })
    expect(out.error.message).to.match(/^this program made its 10 paid calls \(codemode\.maxPaidCalls\)/)
    expect(eye.requests).to.have.length(10)
    const codemode = h!.server.requests[0].body.tools.find((t: any) => t.function.name === 'codemode').function.description
    expect(codemode).to.include('At most 10 paid requests per program')
  })

  it('the count is per program, and codemode.maxPaidCalls sets it', async () => {
    await start({ maxPaidCalls: 3 })
    expect(await program(THIRTY)).to.deep.include({ answers: 3, refused: 27 })
    expect(eye.requests).to.have.length(3)
    // the next program counts from zero again; its answers to the same questions come from the cache, which costs nothing
    h!.server.reset()
    const again = await program(THIRTY)
    expect(again).to.deep.include({ answers: 6, refused: 24 })
    expect(eye.requests).to.have.length(6)
  })
})
