// SPEC §11 tool-call dialects: the real provider over HTTP against a server that never returns
// native tool_calls, only calls written in the model's text (hermes or xml).
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness } from '../support/harness'
import { reconfigureModel } from '../support/faults'
import { messagesOf, type RecordedRequest } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'

type Args = Record<string, unknown>

const DIALECTS: Record<'hermes' | 'xml', (name: string, args: Args) => string> = {
  hermes: (name, args) => `<tool_call>{"name": ${JSON.stringify(name)}, "arguments": ${JSON.stringify(args)}}</tool_call>`,
  // one element per call, one child per argument, an array as repeated elements
  xml: (name, args) => `<${name}>${Object.entries(args).map(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map(x => `<${k}>${x}</${k}>`).join('')).join('')}</${name}>`,
}

/** All the text a request carried after the system prompt. */
function historyText(req: RecordedRequest): string {
  return messagesOf(req).slice(1).map(m => typeof m.content === 'string' ? m.content : JSON.stringify(m.content)).join('\n')
}

/** The request is a text-dialect request: no native tools, tools in the system prompt, calls and results as text. */
function expectTextDialect(req: RecordedRequest) {
  expect(req.body.tools, 'no native tools are sent').to.equal(undefined)
  expect(req.body.tool_choice).to.equal(undefined)
  const [system] = messagesOf(req)
  expect(system.role).to.equal('system')
  expect(system.content).to.include('send_message').and.include('<tools>')
  for (const m of messagesOf(req)) {
    expect(m.role, 'no tool-role messages').to.not.equal('tool')
    expect(m.tool_calls, 'no native tool_calls on assistant messages').to.equal(undefined)
  }
}

for (const [dialect, write] of Object.entries(DIALECTS)) {
  describe(`tool-call dialect: ${dialect} (SPEC §11)`, function () {
    this.timeout(20000)
    let h: Harness
    afterEach(async () => { await h?.stop() })

    async function start(profile?: any) {
      h = await Harness.start(profile ? { profile } : {})
      await reconfigureModel(h, { toolCalls: dialect })
      const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
      await mkdir(local, { recursive: true })
      return local
    }

    it('a send with two messages delivers both in order; the call and its result go back as text', async () => {
      await start()
      h.server.script({ content: write('send_message', { messages: ['first', 'second'], continue: true }) }, { content: write('finish', {}) })
      await h.client('bob').receive('hello')
      await h.server.waitForRequests(2)
      await h.settled()
      expect(h.sent.map(s => s.content)).to.deep.equal(['first', 'second'])
      const [one, two] = h.server.requests
      expectTextDialect(one)
      expectTextDialect(two)
      const back = historyText(two)
      expect(back).to.include(dialect === 'hermes' ? '<tool_call>' : '<send_message>')
      expect(back).to.include('<tool_response>')
      expect(back).to.include('first')
    })

    it('a read pages a 3,000-line file: the Continue note comes back and its URL works', async () => {
      const local = await start()
      await writeFile(join(local, 'big.txt'), Array.from({ length: 3000 }, (_, i) => `line ${i + 1} of the big file`).join('\n'))
      let next = ''
      h.server.script(
        { content: write('read', { url: 'local://big.txt' }) },
        (req) => {
          const m = /read\(\{url: \\*"(local:\/\/big\.txt\?offset=\d+)\\*"\}\)/.exec(historyText(req))
          expect(m, 'the Continue note reaches the model').to.not.equal(null)
          next = m[1]
          return { content: write('read', { url: next }) }
        },
        { content: write('finish', {}) },
      )
      await h.client('bob').receive('read it')
      await h.server.waitForRequests(3)
      await h.settled()
      const third = historyText(h.server.requests[2])
      const lastShown = Math.max(...[...third.matchAll(/line (\d+) of/g)].map(m => Number(m[1])))
      const firstPage = Math.max(...[...historyText(h.server.requests[1]).matchAll(/line (\d+) of/g)].map(m => Number(m[1])))
      expect(lastShown, 'the second page goes further than the first').to.be.greaterThan(firstPage)
      expect(h.warnings()).to.deep.equal([])
      h.server.requests.forEach(expectTextDialect)
    })

    it('a codemode program runs', async () => {
      await start({ codemode: { enabled: true, direct: [] } })
      const code = `const r = await tools.send_message({ messages: ['from code'] }); return 'done'`
      h.server.script({ content: write('codemode', { code }) }, { content: write('finish', {}) })
      await h.client('bob').receive('run')
      await h.server.waitForRequests(2)
      await h.settled()
      expect(h.sent.map(s => s.content)).to.deep.equal(['from code'])
      const two = h.server.requests[1]
      expectTextDialect(two)
      expect(messagesOf(two)[0].content).to.include('codemode')
      expect(historyText(two)).to.include('done')
    })

    it('a malformed call: the next request says what was wrong and the turn goes on', async () => {
      await start()
      const broken = dialect === 'hermes'
        ? '<tool_call>{"name": "send_message", "arguments": {"messages": ["oops",}}</tool_call>'
        : '<send_message><messages>oops</messages>'   // never closed (the parser repairs lesser damage)
      h.server.script({ content: broken }, { content: write('send_message', { messages: ['fixed'] }) })
      await h.client('bob').receive('hello')
      await h.server.waitForRequests(2)
      await h.settled()
      expect(h.sent.map(s => s.content), 'the broken call is not sent as text').to.deep.equal(['fixed'])
      const back = historyText(h.server.requests[1])
      expect(back).to.include('Invalid tool call').and.include('oops')
      expectTextDialect(h.server.requests[1])
    })

    it('text around a call is not delivered; the call runs', async () => {
      await start()
      h.server.script({ content: `Sure, let me answer.\n${write('send_message', { messages: ['the answer'] })}\nHope that helps!` })
      await h.client('bob').receive('question')
      await h.server.waitForRequests(1)
      await h.settled()
      expect(h.sent.map(s => s.content)).to.deep.equal(['the answer'])
      expect(h.server.requests).to.have.length(1)
    })

    it('a call inside a <think> block is not run', async () => {
      await start()
      h.server.script({ content: `<think>maybe ${write('send_message', { messages: ['thought'] })}</think>${write('send_message', { messages: ['said'] })}` })
      await h.client('bob').receive('question')
      await h.server.waitForRequests(1)
      await h.settled()
      expect(h.sent.map(s => s.content)).to.deep.equal(['said'])
    })
  })
}
