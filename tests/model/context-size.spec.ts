// SPEC §11: contextTokens trims the window by estimated tokens; a server that cut the prompt is named once.
import { expect } from 'chai'
import { ContextSizes } from '../../src/model/context-size'
import { Harness, call } from '../support/harness'
import { lastUserText } from '../support/fake-openai'

const config = (contextTokens: number) => ({ id: 'm', baseURL: '', model: 'x', maxRetries: 0, timeoutMs: 1, toolCalls: 'native' as const, contextTokens, fallback: [] as string[] })
const quiet = { debug() {}, info() {}, warn() {}, error() {} }

describe('context size (SPEC §11)', function () {
  it('the window gets 80% of the context less the fixed part, at the learned ratio (2 to start)', () => {
    const sizes = new ContextSizes(quiet)
    expect(sizes.windowChars(config(0), 1000)).to.equal(undefined)
    expect(sizes.windowChars(config(1000), 600)).to.equal((800 - 300) * 2)
    // a server that counts 3 characters a token moves the ratio towards 3
    sizes.observe(config(1000), 3000, 0, 1000)
    expect(sizes.ratio('m')).to.be.closeTo(2.3, 1e-9)
    for (let i = 0; i < 30; i++) sizes.observe(config(1000), 3000, 0, 1000)
    expect(sizes.ratio('m')).to.be.closeTo(3, 0.01)
  })

  it('a reported prompt below one token per 6 units is a cut prompt: one warning per model, no learning from it', () => {
    const warnings: string[] = []
    const sizes = new ContextSizes({ ...quiet, warn: (f: string, ...a: any[]) => warnings.push(require('node:util').format(f, ...a)) })
    sizes.observe(config(0), 40_000, 0, 2048)
    sizes.observe(config(0), 40_000, 0, 2048)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.match(/model "m" counted 2048 prompt tokens for a request of 40000 characters \(at least 6667 tokens\).*OLLAMA_CONTEXT_LENGTH/)
    expect(sizes.ratio('m')).to.equal(2)
  })

  it('English prose at 4.2 units a token (Qwen3 on an English-heavy request) is no cut prompt', () => {
    const warnings: string[] = []
    const sizes = new ContextSizes({ ...quiet, warn: (f: string) => warnings.push(f) })
    sizes.observe(config(0), 12_600, 0, 3000)
    expect(warnings).to.deep.equal([])
    expect(sizes.ratio('m')).to.be.above(2)
  })

  describe('through a real turn', () => {
    let h: Harness
    afterEach(async () => { await h?.stop() })

    it('contextTokens keeps the oldest facts out of a small context; the server\'s truncation is named', async () => {
      h = await Harness.start({ model: { contextTokens: 4000 } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const bob = h.client('bob', 'room1')
      for (let i = 0; i < 40; i++) await bob.receive(`fact ${String(i).padStart(2, '0')} ` + 'x'.repeat(300))
      h.server.script({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 100 } })
      await bob.receive('<at id="514"/> and now?')
      await h.server.waitForRequests(1)
      await h.settled()
      const text = lastUserText(h.server.requests[0])
      expect(text).to.include('and now?')
      expect(text).to.not.include('fact 00 ')
      expect(JSON.stringify(h.server.requests[0].body.messages)).to.include('[earlier history is outside your context window]')
      expect(JSON.stringify(h.server.requests[0].body.messages).length).to.be.below(4000 * 0.8 * 2)
      expect(h.warnings().join('\n')).to.match(/model "main" counted 100 prompt tokens.*OLLAMA_CONTEXT_LENGTH/)
    })
  })
})
