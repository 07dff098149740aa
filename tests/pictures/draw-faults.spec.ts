// Pictures when things go wrong or cost money (SPEC §24, §22): the server's refusal in its words, a
// server that answers 20 MB or never answers bounded, a picture the media store cannot take, a prompt of 100,000 characters refused by the
// schema, price.image counted in the usage book and the budgets (the next draw held), and a
// program's draws counted as paid calls.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { FakeOpenAI, lastToolValues, toolResultsOf } from '../support/fake-openai'
import { drawResults, pictureRig, type PictureRig } from '../support/pictures'
import { pictureOf } from '../support/fake-images'
import { homeOf } from '../support/faults'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

const FINISH = { toolCalls: [call('finish', {})] }
const draw = (prompt: string) => call('draw', { prompt })
const MB = 1024 * 1024

describe('pictures: refusals, bounds and costs', function () {
  this.timeout(30000)
  let r: PictureRig | undefined
  let cheap: FakeOpenAI | undefined
  afterEach(async () => {
    await r?.h.stop()
    await r?.images.close()
    await cheap?.close()
    r = cheap = undefined
  })

  /** One turn of alice's whose first step is `calls`; the results as the model read them. */
  async function turn(h: Harness, calls: ReturnType<typeof call>[], from = 'alice') {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, FINISH)
    await h.client(from).receive('draw')
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return drawResults(h, before + 1, calls.length)
  }

  it('a refusal by the server\'s safety system comes back in its words, and the person keeps their allowance', async () => {
    r = await pictureRig({ images: { perUserDay: 1 } })
    const words = 'Your request was rejected as a result of our safety system.'
    r.images.generations.script({ status: 400, error: words, errorCode: 'content_policy_violation' })
    const [refused] = await turn(r.h, [draw('something bad')])
    expect(refused).to.deep.equal({ ok: false, error: { name: 'Refused', message: words } })
    const [drawn] = await turn(r.h, [draw('a flower')])
    expect(drawn.ok).to.equal(true)
  })

  for (const [what, reply] of [['b64_json', {}], ['url', { url: true }]] as const) {
    it(`a server that answers 21 MB as ${what}: TooLarge, nothing kept`, async () => {
      r = await pictureRig()
      r.images.generations.script({ ...reply, hugeBytes: 21 * MB })
      const [big] = await turn(r.h, [draw('a huge one')])
      expect(big.error.name).to.equal('TooLarge')
      expect(big.error.message).to.include('more than 20 MB')
    })
  }

  it('a server that never answers: the draw fails after the model\'s timeoutMs, and the turn goes on', async () => {
    r = await pictureRig({ painter: { timeoutMs: 300 } })
    r.images.generations.script({ hang: true })
    const [late] = await turn(r.h, [draw('a slow one')])
    expect(late.error.name).to.equal('Failed')
    expect(late.error.message).to.include('no answer within 300 ms')
  })

  it('a picture the bot\'s media store cannot take (attachment.maxAssetBytes): NotKept, no asset of it, the day still counts it', async () => {
    r = await pictureRig({ images: { perUserDay: 1 }, harness: { profile: { attachment: { maxAssetBytes: 10_000 } } } })
    r.images.generations.script({ picture: Buffer.concat([pictureOf('big'), Buffer.alloc(20_000)]) })
    const [big] = await turn(r.h, [draw('a big one')])
    expect(big.error.name).to.equal('NotKept')
    expect(big.error.message).to.equal('the picture was drawn but could not be kept: the bot\'s media store was full of media shown lately (attachment.maxAssetBytes)')
    const assets = join(homeOf(r.h), 'assets')
    expect((await readdir(assets)).filter(f => /^[0-9a-f-]{36}/.test(f)), 'no file of the picture').to.deep.equal([])
    // it was drawn and paid for: the person's allowance is spent
    const [again] = await turn(r.h, [draw('a small one')])
    expect(again.error.name).to.equal('TooMany')
  })

  it('a prompt of 100,000 characters is refused by the schema; the server is not asked', async () => {
    r = await pictureRig()
    const { h } = r
    h.server.script({ toolCalls: [draw('x'.repeat(100_000))] }, FINISH)
    await h.client('alice').receive('draw')
    await h.server.waitForRequests(2)
    await h.settled()
    const [result] = toolResultsOf(h.server.requests[1])
    expect(result.content).to.include('prompt').and.to.include('4000')
    expect(r.images.generations.requests).to.have.length(0)
  })

  it('price.image: each picture costs its price in the usage book and the budgets; past budgets.perUserDay the next draw is held', async () => {
    cheap = await FakeOpenAI.start()
    r = await pictureRig({
      painter: { price: { image: 0.5 } },
      images: { perUserDay: 10 },
      harness: {
        extraModels: [{ id: 'cheap', baseURL: cheap.baseURL, apiKey: 'sk-c', model: 'cheap-model', maxRetries: 0, timeoutMs: 5000 }],
        budgets: { perUserDay: 0.9, onExceeded: 'fallback', fallback: 'cheap' },
        trust: { owners: ['mock:carol'] }, profile: { codemode: { enabled: true, direct: [] } },
      },
    })
    const { h, images } = r
    // past the budget the chat goes on with the fallback model; a picture is held
    cheap.script(FINISH)
    // one after another: the gate is asked before each picture (0, then 0.5, then 1 of 0.9)
    const code = "const out = []; for (const prompt of ['one', 'two', 'three']) out.push(await tools.draw({ prompt })); return out"
    h.server.script({ toolCalls: [call('codemode', { code })] })
    await h.client('alice').receive('three pictures')
    await cheap.waitForRequests(1)
    await h.settled()
    const [out] = lastToolValues(cheap.requests[0], 1)
    const results = Array.isArray(out) ? out : out.result
    expect(results.map((x: any) => x.ok)).to.deep.equal([true, true, false])
    expect(results[2].error.name).to.equal('BudgetExceeded')
    expect(results[2].error.message).to.include('perUserDay')
    expect(images.generations.requests).to.have.length(2)
    const [rt] = await h.app.kotodama.list()
    const painter = rt.usage.snapshot().find(u => u.model === 'painter')!
    expect(painter.today).to.include({ requests: 2, images: 2, cost: 1 })
    const report = await h.app.kotodama.budgetReport()
    expect(report.lines.find(l => l.name === 'perUserDay')!.top[0]).to.include({ key: 'user:mock:alice', spent: 1 })
    await h.client('carol').receive('kotodama.status')
    const status = h.allSent.filter(s => s.reply).map(s => String(s.content)).join('\n')
    expect(status).to.include('2 pictures')
  })

  it('draws inside a codemode program are paid calls: past codemode.maxPaidCalls the next returns PaidCallLimit', async () => {
    r = await pictureRig({ harness: { codemode: { maxPaidCalls: 1 }, profile: { codemode: { enabled: true, direct: [] } } } })
    const { h, images } = r
    const code = "const a = await tools.draw({ prompt: 'one' }); const b = await tools.draw({ prompt: 'two' }); return [a, b]"
    h.server.script({ toolCalls: [call('codemode', { code })] }, FINISH)
    await h.client('alice').receive('two pictures')
    await h.server.waitForRequests(2)
    await h.settled()
    const [out] = lastToolValues(h.server.requests[1], 1)
    const [a, b] = Array.isArray(out) ? out : out.result
    expect(a.ok).to.equal(true)
    expect(b.error.name).to.equal('PaidCallLimit')
    expect(images.generations.requests).to.have.length(1)
  })
})
