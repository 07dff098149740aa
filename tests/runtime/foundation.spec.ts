// The basics of a mind in a chat: what wakes it, send_message and finish, plain text and bad input, steps, history and its window.
import { expect } from 'chai'
import { readFile, appendFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call, typingBetween } from '../support/harness'
import { lastUserText, toolNamesOf, toolResultsOf, messagesOf } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'
import { MediaServer } from '../support/media-server'

const SLOW_TYPING = typingBetween(120, 200)

function toolResult(h: Harness, req: number, i = 0 /* 0 = the last */): any {
  return JSON.parse(toolResultsOf(h.server.requests[req]).at(i - 1).content)
}

describe('foundation: a mind in the chat', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a mention wakes the mind and two messages arrive in order with a typing gap', async () => {
    h = await Harness.start({ profile: { typing: SLOW_TYPING } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['hello', 'how are you?'] })] })
    await h.client('alice', 'room1').receive('<at id="514"/> hi there')
    await h.until(() => h.sent.length === 2, 'two sends')
    expect(h.sent.map(s => s.content)).to.deep.equal(['hello', 'how are you?'])
    expect(h.sent[0].channel).to.equal('room1')
    expect(h.sent[1].at - h.sent[0].at).to.be.at.least(110)
    const req = h.server.requests[0]
    expect(lastUserText(req)).to.match(/alice \(alice\) #\d+: <at id="514"\/> hi there/)
    expect(req.body.messages[0].role).to.equal('system')
    expect(req.body.messages[0].content).to.include('You are Neko.')
    expect(toolNamesOf(req)).to.include.members(['send_message', 'finish', 'wait', 'read'])
    await h.settled()
    expect(h.server.requests).to.have.length(1)
  })

  it('stores messages that do not wake it and shows them at the next wake-up', async () => {
    h = await Harness.start()
    const alice = h.client('alice', 'room1')
    await alice.receive('just chatting')
    await h.idle(50)
    expect(h.server.requests).to.have.length(0)
    h.server.script({ toolCalls: [call('finish', {})] })
    await alice.receive('<at id="514"/> you there?')
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text).to.include('just chatting')
    expect(text).to.include('you there?')
  })

  it('an unclaimed channel is never sent to the model, and the bot ignores itself', async () => {
    h = await Harness.start({ profile: { claims: [{ bot: '*', channels: ['group:room1', 'private:*'] }] } })
    await h.client('alice', 'room2').receive('<at id="514"/> hello?')
    h.client('514', 'room1').receive('<at id="514"/> talking to myself')  // no middleware runs for the bot's own message
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    const runtimes = await h.app.kotodama.list()
    const convs = (await Promise.all(runtimes.map(r => r.status()))).flat()
    expect(convs.map(c => c.key)).to.not.include('group:room2')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi in private')
    await h.server.waitForRequests(1)
    expect(lastUserText(h.server.requests[0])).to.include('hi in private')
    expect(lastUserText(h.server.requests[0])).to.not.include('talking to myself')
  })

  it('finish ends the turn and sends nothing', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', { reason: 'nothing to add' })] })
    await h.client('bob').receive('ok bye')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.sent).to.have.length(0)
    expect(h.server.requests).to.have.length(1)
  })

  it('continue: true gives another step that sees the send result', async () => {
    h = await Harness.start()
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['let me think'], continue: true })] },
      { toolCalls: [call('send_message', { messages: ['done thinking'] })] },
    )
    await h.client('bob').receive('question')
    await h.until(() => h.sent.length === 2, 'two sends')
    await h.settled()
    expect(h.server.requests).to.have.length(2)
    expect(toolResult(h, 1)).to.deep.equal({ ok: true, ids: ['sent-0'] })
  })

  it('a plain-text step is reminded once, and a second one ends the turn', async () => {
    h = await Harness.start()
    h.server.script({ content: 'I would say hi' }, { content: 'still talking to myself' })
    await h.client('bob').receive('hey')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(h.server.requests).to.have.length(2)
    expect(h.sent).to.have.length(0)
    const second = messagesOf(h.server.requests[1])
    expect(second.at(-2)).to.deep.include({ role: 'assistant', content: 'I would say hi' })
    expect(lastUserText(h.server.requests[1])).to.include('[reminder:')
  })

  it('strayText send delivers plain text as a message; drop ends the turn silently', async () => {
    h = await Harness.start({ profile: { strayText: 'send' } })
    h.server.script({ content: 'plain hello' })
    await h.client('bob').receive('hey')
    await h.until(() => h.sent.length === 1, 'stray send')
    expect(h.sent[0].content).to.equal('plain hello')
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('again')
    await h.server.waitForRequests(2)
    // stored as the send_message call it became
    const msgs = messagesOf(h.server.requests[1])
    expect(msgs.some(m => m.role === 'assistant' && m.tool_calls?.[0]?.function?.name === 'send_message')).to.equal(true)
    await h.stop()

    h = await Harness.start({ profile: { strayText: 'drop' } })
    h.server.script({ content: 'plain hello' })
    await h.client('bob').receive('hey')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.sent).to.have.length(0)
    expect(h.server.requests).to.have.length(1)
  })

  it('a platform send error yields ok:false with the sent ids and failedAt', async () => {
    h = await Harness.start({ failSend: { at: 1, message: 'rate limited by platform' } })
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['one', 'two', 'three'] })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('talk')
    await h.server.waitForRequests(2)
    expect(h.sent.map(s => s.content)).to.deep.equal(['one'])
    expect(toolResult(h, 1)).to.deep.equal({
      ok: false, error: { name: 'SendFailed', message: 'rate limited by platform' }, sent: ['sent-0'], failedAt: 1,
    })
  })

  it('refuses an empty message before sending anything', async () => {
    h = await Harness.start()
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['fine', '   '] })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('talk')
    await h.server.waitForRequests(2)
    expect(h.sent).to.have.length(0)
    const r = toolResult(h, 1)
    expect(r).to.deep.include({ ok: false, sent: [], failedAt: 1 })
    expect(r.error.name).to.equal('InvalidMessage')
  })

  it('text mode sends markup literally; element mode parses it', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [
      call('send_message', { messages: ['<b>bold</b> hi'], continue: true }),
      call('send_message', { messages: ['1 < 2 <b>x</b>'], mode: 'text' }),
    ] })
    await h.client('bob').receive('talk')
    await h.until(() => h.sent.length === 2, 'sends')
    expect(h.sent[0].content).to.equal('<b>bold</b> hi')
    expect(h.sent[1].content).to.equal('1 &lt; 2 &lt;b&gt;x&lt;/b&gt;')
  })

  it('invalid tool input reaches the model as a validation message and the turn goes on', async () => {
    h = await Harness.start()
    h.server.script(
      { toolCalls: [call('send_message', { messages: [] })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('talk')
    await h.server.waitForRequests(2)
    expect(toolResultsOf(h.server.requests[1])[0].content)
      .to.equal('Invalid input for tool send_message: messages: Too small: expected array to have >=1 items')
    await h.settled()
    h.server.script(
      { toolCalls: [call('send_message', '{"messages": ["unclosed"'), call('telepathy', {})] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('again')
    await h.server.waitForRequests(4)
    const [bad, unknown] = toolResultsOf(h.server.requests[3]).slice(-2).map(r => r.content)
    expect(bad).to.match(/^Invalid input for tool send_message: the arguments are not valid JSON/)
    expect(unknown).to.match(/unavailable tool 'telepathy'.*send_message/)
    expect(h.sent).to.have.length(0)
  })

  it('a fact arriving during a turn is visible at its next step; a missed mention starts a new turn', async () => {
    h = await Harness.start()
    const bob = h.client('bob')
    let release: () => void
    const gate = new Promise<void>(r => { release = r })
    h.server.script(
      async () => { await gate; return { toolCalls: [call('send_message', { messages: ['first'], continue: true })] } },
      { toolCalls: [call('send_message', { messages: ['second'] })] },
      { toolCalls: [call('finish', {})] },
    )
    await bob.receive('one')
    await h.server.waitForRequests(1)
    await bob.receive('two, sent while you think')
    release()
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.include('two, sent while you think')
    expect(lastUserText(h.server.requests[0])).to.not.include('two, sent while you think')
    await h.settled()
    // 'two' arrived before step 2 and was seen there: no extra turn for it
    expect(h.server.requests).to.have.length(2)

    // a direct message arriving during the last step was not seen: a new turn follows
    let release2: () => void
    const gate2 = new Promise<void>(r => { release2 = r })
    h.server.script(
      async () => { await gate2; return { toolCalls: [call('finish', {})] } },
      { toolCalls: [call('finish', {})] },
    )
    await bob.receive('three')
    await h.server.waitForRequests(3)
    await bob.receive('four, late')
    release2()
    await h.server.waitForRequests(4)
    expect(lastUserText(h.server.requests[3])).to.include('four, late')
  })

  it('stops after maxSteps, and tells the owner in one info line (issue 21)', async () => {
    h = await Harness.start({ profile: { maxSteps: 3 } })
    h.server.fallback({ toolCalls: [call('read', { url: 'local://' })] })
    await h.client('bob').receive('loop forever')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(h.server.requests).to.have.length(3)
    const info = h.logs.filter(l => l.level === 'info' && /maxSteps/.test(l.text)).map(l => l.text)
    expect(info).to.deep.equal(['conversation private:bob: turn 1 stopped after maxSteps (3 steps)'])
  })

  it('a failing model call ends the turn with a warning and stores nothing half-done', async () => {
    h = await Harness.start()
    h.server.script({ status: 500, error: 'upstream exploded' })
    await h.client('bob').receive('hello?')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.warnings().join('\n')).to.match(/call to model "main" failed, the turn ends: HTTP 500: .*upstream exploded/)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello again')
    await h.server.waitForRequests(2)
    const msgs = messagesOf(h.server.requests[1])
    expect(msgs.filter(m => m.role === 'assistant')).to.have.length(0)
    expect(lastUserText(h.server.requests[1])).to.include('hello?')
  })

  it('a quote of one of its messages wakes it; a quote of someone else does not', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['I said something'] })] })
    const alice = h.client('alice', 'room1')
    await alice.receive('<at id="514"/> say something')
    await h.until(() => h.sent.length === 1, 'send')
    await h.settled()
    await alice.receive('<quote id="someone-else"/>not you')
    await h.idle(50)
    expect(h.server.requests).to.have.length(1)
    h.server.script({ toolCalls: [call('finish', {})] })
    await alice.receive('<quote id="sent-0"/>about that')
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.include('(reply to #sent-0) about that')
  })

  it('keywords wake it', async () => {
    h = await Harness.start({ profile: { wake: { keywords: ['neko'] } } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('where is neko today')
    await h.server.waitForRequests(1)
  })

  it('the context window drops old entries and says so', async () => {
    h = await Harness.start({ profile: { context: { maxMessages: 3, maxChars: 60000 } } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    for (let i = 0; i < 4; i++) {
      await bob.receive(`message ${i}`)
      await h.server.waitForRequests(i + 1)
      await h.settled()
    }
    const msgs = messagesOf(h.server.requests[3])
    expect(msgs[1]).to.deep.include({ role: 'user', content: '[earlier history is outside your context window]' })
    expect(JSON.stringify(msgs)).to.not.include('message 0')
    expect(JSON.stringify(msgs)).to.include('message 3')
  })

  it('a very long message is shown shortened, and the rest can be read from its artifact', async () => {
    h = await Harness.start()
    const long = Array.from({ length: 800 }, (_, i) => `word${i}`).join(' ')
    let next = ''
    h.server.script(
      req => {
        const text = lastUserText(req)
        // the fact's last line (the turn's `[now: …]` line follows it)
        next = /read\(\{url: "([^"]+)"\}\)\]$/m.exec(text)?.[1]
        return { toolCalls: [call('read', { url: next })] }
      },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive(long)
    await h.server.waitForRequests(2)
    // the fact's line, without the turn's opening lines after it
    const shown = lastUserText(h.server.requests[0]).split('\n[')[0]
    expect(shown.length).to.be.below(4300)
    expect(next).to.match(/^artifact:\/\/message\/[0-9a-f]{20}\.txt\?offset=4000$/)
    const rest = toolResultsOf(h.server.requests[1]).at(-1).content
    const start = shown.indexOf('word0')
    expect(shown.slice(start, start + 4000) + rest).to.equal(long)
  })

  it('reasoning is not sent back in later requests', async () => {
    h = await Harness.start()
    h.server.script(
      { reasoning: 'let me think very hard', toolCalls: [call('send_message', { messages: ['hi'], continue: true })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(2)
    expect(JSON.stringify(h.server.requests[1].body)).to.not.include('let me think very hard')
    expect(h.server.requests[0].body.messages[0].content).to.include('(user id 514; <at id="514"/> mentions you)')
  })

  it('two sends in one step keep their order even when the first has media to load', async () => {
    const png = tinyPng(0, 1, 1)
    const media = await MediaServer.start((_, res) => setTimeout(() => { res.setHeader('content-type', 'image/png'); res.end(png) }, 300))
    try {
      h = await Harness.start()
      const url = `${media.base}/slow.png`
      h.server.script(req => {
        const id = /asset:\/\/([0-9a-f-]{36})/.exec(lastUserText(req))[1]
        return { toolCalls: [call('send_message', { messages: [`<img src="asset://${id}"/> first`] }), call('send_message', { messages: ['second'] })] }
      })
      await h.client('bob').receive(`look <img src="${url}"/>`)
      await h.until(() => h.sent.length === 2, 'two sends')
      expect(h.sent[0].content).to.match(/^<img src="data:image\/png;base64,[^"]+"\/> first$/)
      expect(h.sent[1].content).to.equal('second')
    } finally {
      await media.close()
    }
  })
})
