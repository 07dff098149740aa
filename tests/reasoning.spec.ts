// SPEC §11: reasoning is never chat text.
import { expect } from 'chai'
import { splitReasoning } from '../src/model/reasoning'
import { Harness, call } from './support/harness'
import { messagesOf } from './support/fake-openai'

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
