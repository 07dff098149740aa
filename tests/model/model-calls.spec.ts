// One counted way to call a model (issue 26): vision questions and embeddings are counted in the
// usage book like steps, so kotodama.status and the console show what they cost.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { FakeOpenAI, toolResultsOf } from '../support/fake-openai'
import { embeddingsReporting, type EmbeddingsWithUsage } from '../support/embeddings-usage'
import { runtimeHome } from '../../src/runtime/runtime'
import { usageToday } from '../../src/console-data/summary'
import type { RuntimeView } from '../../src/tools/types'
import { generateText, streamText } from 'ai'
import { z } from 'zod'
import { tinyPng } from '../support/tiny-png'
import { recallPart } from '../../src/recall/part'

const PNG = tinyPng(0, 1, 1)

describe('every model call is counted (issue 26)', function () {
  let h: Harness | undefined
  let eye: FakeOpenAI | undefined
  let emb: EmbeddingsWithUsage | undefined
  afterEach(async () => {
    await h?.stop()
    await eye?.close()
    await emb?.close()
    h = eye = emb = undefined
  })

  const model = (id: string, baseURL: string, extra: object = {}) =>
    ({ id, baseURL, apiKey: `sk-${id}`, model: `${id}-model`, maxRetries: 0, timeoutMs: 5000, ...extra })

  it('kotodama.status and the console count the vision model\'s and the embedding model\'s tokens', async () => {
    eye = await FakeOpenAI.start()
    emb = await embeddingsReporting(388)
    h = await Harness.start({
      extraModels: [model('eye', eye.baseURL), model('emb', emb.baseURL)],
      profile: { attachment: { visionModel: 'eye' }, recall: { enabled: true, embeddingModel: 'emb' } },
      trust: { owners: ['mock:bob'] },
    })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), PNG)
    eye.script({ content: 'a single dark pixel', usage: { prompt_tokens: 7919, completion_tokens: 613 } })
    h.server.script(
      { toolCalls: [call('read', { url: 'local://dot.png?question=what color is it?' })], usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { toolCalls: [call('finish', {})], usage: { prompt_tokens: 120, completion_tokens: 5 } },
    )
    await h.client('bob').receive('what is in dot.png?')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(toolResultsOf(h.server.requests[1]).at(-1).content).to.equal('a single dark pixel')
    const [runtime] = await h.app.kotodama.list()
    await runtime.part(recallPart)!.recall.idle()
    expect(emb.requests.length).to.be.greaterThan(0)

    const status = (await h.client('bob').receive('kotodama.status'))[0]
    expect(status, status).to.include('  model eye:\n    since start: 1 requests, 7919 prompt tokens (0% cached), 613 completion tokens, 0 errors\n')
    const embedded = emb.requests.length
    const counted = `${embedded} requests, ${388 * embedded} prompt tokens (0% cached), 0 completion tokens, 0 errors`
    expect(status, status).to.include(`  model emb:\n    since start: ${counted}\n`)
    // the console's figures for today hold every model's tokens and requests
    const today = usageToday(runtime.usage)
    expect(today.tokensToday).to.equal(100 + 10 + 120 + 5 + 7919 + 613 + 388 * embedded)
    expect(today.requestsToday).to.equal(2 + 1 + embedded)
    expect(today.days[0]).to.include({ promptTokens: 100 + 120 + 7919 + 388 * embedded, completionTokens: 10 + 5 + 613 })
  })

  it('a vision model that is unavailable fails over to its fallback; both requests are counted', async () => {
    eye = await FakeOpenAI.start()
    const spare = await FakeOpenAI.start()
    try {
      h = await Harness.start({
        extraModels: [model('eye', eye.baseURL, { fallback: ['spare'] }), model('spare', spare.baseURL)],
        profile: { attachment: { visionModel: 'eye' } },
      })
      const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
      await mkdir(local, { recursive: true })
      await writeFile(join(local, 'dot.png'), PNG)
      eye.script({ status: 503, error: 'eye is down' })
      spare.script({ content: 'black', usage: { prompt_tokens: 50, completion_tokens: 2 } })
      h.server.script(
        { toolCalls: [call('read', { url: 'local://dot.png?question=which color' })] },
        { toolCalls: [call('finish', {})] },
      )
      await h.client('bob').receive('look')
      await h.server.waitForRequests(2)
      await h.settled()
      expect(toolResultsOf(h.server.requests[1]).at(-1).content).to.equal('black')
      const [runtime] = await h.app.kotodama.list()
      const usage = Object.fromEntries(runtime.usage.snapshot().map(u => [u.model, u.today]))
      expect(usage.eye).to.include({ requests: 1, errors: 1 })
      expect(usage.spare).to.include({ requests: 1, errors: 0, promptTokens: 50, completionTokens: 2 })
    } finally {
      await spare.close()
    }
  })

  it('a model another plugin\'s tool calls through the runtime\'s view is counted too, streamed or not', async () => {
    eye = await FakeOpenAI.start()
    h = await Harness.start({ extraModels: [model('eye', eye.baseURL)] })
    h.app.plugin({
      name: 'helper', inject: ['kotodama'],
      apply: (ctx: any) => ctx.kotodama.registerTool('ask_eye', (runtime: RuntimeView) => ({
        description: 'Ask another model', inputSchema: z.object({ stream: z.boolean() }),
        execute: async ({ stream }: { stream: boolean }) => {
          const m = runtime.model('eye')!.model
          if (!stream) return (await generateText({ model: m, prompt: 'hello' })).text
          const s = streamText({ model: m, prompt: 'hello' })
          return await s.text
        },
      })),
    })
    await h.idle()
    eye.script(
      { content: 'asked', usage: { prompt_tokens: 40, completion_tokens: 4 } },
      { content: 'streamed', usage: { prompt_tokens: 60, completion_tokens: 6 } },
    )
    h.server.script(
      { toolCalls: [call('ask_eye', { stream: false })] },
      { toolCalls: [call('ask_eye', { stream: true })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('ask the other model')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(toolResultsOf(h.server.requests[2]).map(r => r.content)).to.deep.equal(['asked', 'streamed'])
    const [runtime] = await h.app.kotodama.list()
    const usage = Object.fromEntries(runtime.usage.snapshot().map(u => [u.model, u.today]))
    expect(usage.eye).to.include({ requests: 2, errors: 0, promptTokens: 100, completionTokens: 10 })
    // the steps of the turn are counted once each, not again through the view
    expect(usage.main).to.include({ requests: 3 })
  })
})
