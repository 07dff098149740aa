// What each provider is given of one history (SPEC §11.1): breakpoints where the layout repeats the
// prefix (Anthropic's "Prompt caching": at most 4, a breakpoint looks back 20 blocks), only its own
// reasoning and signatures, cache writes priced, Moonshot's top-level cached_tokens read.
import { expect } from 'chai'
import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider'
import { minimumCacheable, withBreakpoints } from '../../src/model/providers/anthropic-cache'
import { neutralPrompt } from '../../src/model/providers/neutral'
import { wireUsage } from '../../src/model/providers/wire-format'
import { costOf } from '../../src/usage/cost'
import { stepUsage } from '../../src/usage/book'
import { configSchema } from '../../src/runtime/config-of-parts'
import { checkConfig } from '../../src/runtime/config-of-parts'

const user = (text: string): LanguageModelV3Message => ({ role: 'user', content: [{ type: 'text', text }] })
const tools = (n: number): LanguageModelV3Message => ({
  role: 'tool', content: Array.from({ length: n }, (_, i) => ({ type: 'tool-result' as const, toolCallId: `c${i}`, toolName: 't', output: { type: 'text' as const, value: 'ok' } })),
})
const marked = (p: LanguageModelV3Prompt) => p.flatMap((m, i) => m.providerOptions?.anthropic?.cacheControl ? [i] : [])

describe('native providers: Anthropic breakpoints', () => {
  it('one on the system prompt and one on the newest message; a long history gets a staircase 18 blocks apart, 4 at most', () => {
    const short: LanguageModelV3Prompt = [{ role: 'system', content: 'persona' }, user('a'), user('b')]
    expect(marked(withBreakpoints(short, '5m'))).to.deep.equal([0, 2])
    const long: LanguageModelV3Prompt = [{ role: 'system', content: 'persona' }, ...Array.from({ length: 100 }, (_, i) => user(`m${i}`))]
    const at = marked(withBreakpoints(long, '5m'))
    expect(at).to.have.length(4)
    expect(at[0]).to.equal(0)
    // the newest, then 18 and 36 messages (one block each) before it
    expect(at.slice(1)).to.deep.equal([64, 82, 100])
  })

  it('counts blocks, not messages: a tool message of 30 results gets its breakpoint, the next goes on the message before it', () => {
    const p: LanguageModelV3Prompt = [{ role: 'system', content: 's' }, user('a'), user('b'), tools(30)]
    expect(marked(withBreakpoints(p, '1h'))).to.deep.equal([0, 2, 3])
    expect(withBreakpoints(p, '1h')[3].providerOptions?.anthropic?.cacheControl).to.deep.equal({ type: 'ephemeral', ttl: '1h' })
    expect(withBreakpoints(p, '5m')[3].providerOptions?.anthropic?.cacheControl).to.deep.equal({ type: 'ephemeral' })
    expect(p[3].providerOptions, 'the prompt given is not changed').to.equal(undefined)
  })

  it('knows each model\'s minimum cacheable prompt', () => {
    expect([minimumCacheable('claude-sonnet-4-5'), minimumCacheable('claude-3-5-haiku-latest'), minimumCacheable('claude-opus-4-5')]).to.deep.equal([1024, 2048, 4096])
  })
})

describe('native providers: one neutral history', () => {
  const history: LanguageModelV3Prompt = [
    user('hi'),
    { role: 'assistant', content: [
      { type: 'reasoning', text: 'claude thinks', providerOptions: { anthropic: { signature: 'sig-a' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {}, providerOptions: { google: { thoughtSignature: 'sig-g' } } },
    ] },
    tools(1),
    { role: 'assistant', content: [{ type: 'reasoning', text: 'deepseek thinks' }, { type: 'text', text: 'done' }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'only foreign', providerOptions: { openai: { itemId: 'r1', reasoningEncryptedContent: 'enc' } } }] },
  ]
  const parts = (p: LanguageModelV3Prompt) => p.filter(m => m.role === 'assistant').map(m => (m.content as any[]).map(c => `${c.type}:${Object.keys(c.providerOptions ?? {}).join('+')}`))

  it('each native provider gets its own reasoning and signatures; a step of only foreign reasoning is left out; tool calls stay', () => {
    expect(parts(neutralPrompt(history, 'anthropic'))).to.deep.equal([['reasoning:anthropic', 'tool-call:'], ['text:']])
    expect(parts(neutralPrompt(history, 'google'))).to.deep.equal([['tool-call:google'], ['text:']])
    expect(parts(neutralPrompt(history, 'openai'))).to.deep.equal([['tool-call:'], ['text:'], ['reasoning:openai']])
  })

  it('an OpenAI-compatible server gets plain reasoning (reasoning_content) but no native provider\'s', () => {
    expect(parts(neutralPrompt(history, 'kotodama'))).to.deep.equal([['tool-call:'], ['reasoning:', 'text:']])
    expect(neutralPrompt([user('x')], 'anthropic')).to.have.length(1)
  })
})

describe('native providers: configuration', () => {
  it('an unknown provider is refused with its field path and the entry is left out (the form lets any text through); thinkingBudget is checked', () => {
    const checked = checkConfig(configSchema({
      models: [
        { id: 'a', provider: 'claude', baseURL: 'http://x/v1', model: 'm' },
        { id: 'b', provider: 'anthropic', baseURL: 'http://x/v1', model: 'm', thinkingBudget: -1 },
        { id: 'c', provider: 'google', baseURL: 'http://x/v1', model: 'm', cacheTtl: '1h', thinkingBudget: 2048 },
      ],
      profiles: [{ id: 'p', model: 'c', claims: [{ bot: '*', channels: ['*'] }] }],
    } as any))
    expect(checked.problems.map(p => [p.path, p.message])).to.deep.equal([
      ['models[0].provider', 'names unknown provider "claude" (known: openai-compatible, anthropic, google, openai)'],
      ['models[1].thinkingBudget', 'must be a whole number >= 0'],
    ])
    expect([...checked.models.keys()]).to.deep.equal(['c'])
    expect(checked.profiles.map(p => p.id)).to.deep.equal(['p'])
  })
})

describe('native providers: usage in one shape', () => {
  it('reads Moonshot\'s top-level cached_tokens', () => {
    const u = wireUsage({ prompt_tokens: 1000, completion_tokens: 10, cached_tokens: 510 })
    expect(u.inputTokens.cacheRead).to.equal(510)
    expect(wireUsage({ prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 200 }, cached_tokens: 510 }).inputTokens.cacheRead).to.equal(200)
  })

  it('prices cache writes at cacheWrite, or at the input price when it is unknown', () => {
    const u = stepUsage('claude', 5, {
      inputTokens: { total: 1000, noCache: 100, cacheRead: 600, cacheWrite: 300 }, outputTokens: { total: 100, text: 100, reasoning: 0 },
    })
    expect(u).to.include({ promptTokens: 1000, cachedTokens: 600, cacheWriteTokens: 300 })
    // per million: 100 × 3 + 600 × 0.3 + 300 × 3.75 + 100 × 15
    expect(costOf(u, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 })).to.be.closeTo((300 + 180 + 1125 + 1500) / 1e6, 1e-12)
    expect(costOf(u, { input: 3, cachedInput: 0.3, output: 15 })).to.be.closeTo((300 + 180 + 900 + 1500) / 1e6, 1e-12)
  })
})
