// SPEC §11: reasoning is never chat text.
import { expect } from 'chai'
import { splitReasoning } from '../../src/model/reasoning'
import { Harness, call } from '../support/harness'
import { messagesOf } from '../support/fake-openai'
import { MockLanguageModelV3 } from 'ai/test'
import type { ModelMessage } from 'ai'
import type { LanguageModelV3Content } from '@ai-sdk/provider'
import { callModel, offerTools } from '../../src/model/call-model'
import { finishTool } from '../../src/tools/finish'
import type { Tool } from '../../src/contract/tool'
import { entryProblem } from '../../src/history/entry-shape'

describe('reasoning in the content', () => {
  it('closed, unclosed and lone-closing blocks of <think> and <thinking> are reasoning', () => {
    expect(splitReasoning('<think>weighing words</think>\n\nplain reply')).to.deep.equal({ text: 'plain reply', reasoning: 'weighing words' })
    expect(splitReasoning('<thinking>a</thinking>b<THINK>c</THINK>d')).to.deep.equal({ text: 'bd', reasoning: 'a\nc' })
    expect(splitReasoning('<think>cut off in the mid')).to.deep.equal({ text: '', reasoning: 'cut off in the mid' })
    expect(splitReasoning('answer first <think>then cut')).to.deep.equal({ text: 'answer first ', reasoning: 'then cut' })
    expect(splitReasoning('started inside</think>\nthe answer')).to.deep.equal({ text: 'the answer', reasoning: 'started inside' })
    expect(splitReasoning('a <b>bold</b> answer, 1 < 2')).to.deep.equal({ text: 'a <b>bold</b> answer, 1 < 2', reasoning: '' })
  })
})

describe('reasoning through a real turn (SPEC §11)', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('strayText send delivers the text after a <think> block, never the block', async () => {
    h = await Harness.start({ profile: { strayText: 'send' } })
    h.server.script({ content: '<think>weighing words</think>\n\nplain reply' })
    await h.client('bob').receive('hi')
    await h.until(() => h.sent.length === 1, 'the stray send')
    await h.settled()
    expect(h.sent.map(s => s.content)).to.deep.equal(['plain reply'])
  })

  it('under strayText send, a step of reasoning only sends nothing and ends the turn', async () => {
    h = await Harness.start({ profile: { strayText: 'send' } })
    h.server.script({ reasoning: 'thinking in the field', content: '<think>and in the content</think>  ' })
    await h.client('bob').receive('hi')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect(h.sent).to.deep.equal([])
  })

  it('a step of reasoning only is an empty step: nothing is sent; reasoning never returns to the model', async () => {
    h = await Harness.start({ profile: { strayText: 'remind' } })
    h.server.script(
      { content: '<think>only thinking, then the output was cut' },
      { reasoning: 'reasoning_content field', content: '<think>more</think>', toolCalls: [call('send_message', { messages: ['answer'] })] },
    )
    await h.client('bob').receive('hi')
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    expect(h.sent.map(s => s.content)).to.deep.equal(['answer'])
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('again')
    await h.server.waitForRequests(3)
    const later = JSON.stringify(messagesOf(h.server.requests[2]))
    expect(later).to.not.match(/only thinking|reasoning_content field|<think>|more/)
  })
})

describe('reasoning parts keep their provider metadata (issue 26)', () => {
  const config = { id: 'native', baseURL: '', model: 'm', maxRetries: 0, timeoutMs: 5000, toolCalls: 'native' as const, contextTokens: 0,
    fallback: [] as string[] }
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: undefined as number | undefined },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  }
  const answer = (content: LanguageModelV3Content[]) =>
    ({ content, finishReason: { unified: 'tool-calls' as const, raw: undefined as string | undefined }, usage, warnings: [] as never[] })

  it('a step with two signed reasoning parts is stored with both, and the next request carries them back', async () => {
    const signed: LanguageModelV3Content[] = [
      { type: 'reasoning', text: 'first, who is asking', providerMetadata: { anthropic: { signature: 'sig-1' } } },
      { type: 'reasoning', text: 'then, what to say', providerMetadata: { google: { thoughtSignature: 'ts-2' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'finish', input: '{}' },
    ]
    const replies = [answer(signed), answer([{ type: 'tool-call', toolCallId: 'c2', toolName: 'finish', input: '{}' }])]
    const model = new MockLanguageModelV3({ doGenerate: async () => replies.shift()! })
    const handle = { config, model }
    const tools = offerTools(new Map<string, Tool>([['finish', finishTool() as Tool]]))
    const user: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] }
    const step = await callModel(handle, { system: 'You are Neko.', messages: [user], tools })
    const reasoning = (step.assistant!.content as any[]).filter(p => p.type === 'reasoning')
    expect(reasoning).to.deep.equal([
      { type: 'reasoning', text: 'first, who is asking', providerOptions: { anthropic: { signature: 'sig-1' } } },
      { type: 'reasoning', text: 'then, what to say', providerOptions: { google: { thoughtSignature: 'ts-2' } } },
    ])
    // as the history stores it: a JSON line that loads again as a step
    const output = { type: 'text' as const, value: 'ok' }
    const result: ModelMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId: step.calls[0].id, toolName: 'finish', output }] }
    const stored = JSON.parse(JSON.stringify({ type: 'step', at: 1, turn: 1, messages: [step.assistant, result] }))
    expect(entryProblem(stored)).to.equal(undefined)
    const again: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'again' }] }
    await callModel(handle, { system: 'You are Neko.', messages: [user, ...stored.messages, again], tools })
    const assistant = model.doGenerateCalls[1].prompt.find(m => m.role === 'assistant')!
    expect((assistant.content as any[]).filter(p => p.type === 'reasoning')).to.deep.equal([
      { type: 'reasoning', text: 'first, who is asking', providerOptions: { anthropic: { signature: 'sig-1' } } },
      { type: 'reasoning', text: 'then, what to say', providerOptions: { google: { thoughtSignature: 'ts-2' } } },
    ])
  })

  it('an older history with one folded reasoning part still loads', () => {
    const folded = [{ type: 'reasoning', text: 'a\nb' }, { type: 'text', text: 'hi' }]
    const old = { type: 'step', at: 1, turn: 1, messages: [{ role: 'assistant', content: folded }] }
    expect(entryProblem(old)).to.equal(undefined)
  })
})
