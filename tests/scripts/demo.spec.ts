// `npm start -- --offline` end to end, in-process: the demo app, the console WebSocket the
// sandbox page uses, and the scripted offline model over HTTP.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Logger } from 'koishi'
import WebSocket from 'ws'
import { upkeepPart } from '../../src/upkeep/part'
import { startDemo, type Demo } from '../../scripts/demo'
import { freePort } from '../support/free-port'

interface SandboxMessage {
  id: string
  content: string
  user: string
  channel: string
  platform: string
  at: number
}

describe('demo: npm start -- --offline', function () {
  this.timeout(15000)
  let demo: Demo
  let dataDir: string
  let ws: WebSocket | undefined
  const baseLevel = Logger.levels.base

  before(async () => {
    Logger.levels.base = 1 // errors only: keep the server's startup lines out of the report
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-demo-'))
    demo = await startDemo({
      port: await freePort(), offline: true, dataDir,
      // short but real pauses, so the test stays fast and still sees the gap between messages
      typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 150, maxDelay: 300, jitter: 0 },
    })
  })

  /** A console connection as the sandbox page opens it; collects every sandbox message it shows. */
  async function openConsole(): Promise<SandboxMessage[]> {
    ws?.terminate()
    const received: SandboxMessage[] = []
    const socket = ws = new WebSocket(demo.url.replace(/^http/, 'ws') + '/status')
    socket.on('message', (data) => {
      const m = JSON.parse(String(data))
      if (m.type === 'sandbox/message') received.push({ ...m.body, at: Date.now() })
    })
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject) })
    return received
  }

  after(async () => {
    ws?.terminate()
    await demo?.stop()
    Logger.levels.base = baseLevel
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('serves the sandbox chat page', async () => {
    expect(demo.sandboxUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/)
    const res = await fetch(demo.sandboxUrl)
    expect(res.status).to.equal(200)
    expect(await res.text()).to.include('KOISHI_CONFIG')
    expect(demo.model.offline).to.equal(true)
  })

  it('a private sandbox message comes back as two echo messages from the bot', async () => {
    const received = await openConsole()
    // what the sandbox page sends when alice writes in her private chat with the bot
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:alice', 'alice', '@alice', 'hello kotodama'], id: 1 }))

    const fromBot = () => received.filter(m => m.user === 'Koishi')
    const deadline = Date.now() + 8000
    while (fromBot().length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 25))
    const replies = fromBot()
    expect(replies.map(m => m.content), JSON.stringify(received)).to.have.length(2)

    expect(received[0]).to.include({ user: 'alice', channel: '@alice', content: 'hello kotodama' })
    expect(replies[0].content).to.equal('I heard: hello kotodama')
    expect(replies[1].content).to.match(/offline demo/)
    for (const m of replies) expect(m).to.include({ channel: '@alice', platform: 'sandbox:alice' })
    // typing pause before the second message (minDelay 150)
    expect(replies[1].at - replies[0].at).to.be.at.least(100)
    // send_message without continue closes the turn: one model request in all
    expect(demo.offlineModel.requests).to.equal(1)
  })

  it('in a group of the sandbox, "@Koishi" written as text wakes the mind', async () => {
    const received = await openConsole()
    const before = demo.offlineModel.requests
    // chatting without the name does not wake it; the sandbox escapes markup, so a mention is text
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:bob', 'bob', '#', 'just chatting'], id: 1 }))
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:bob', 'bob', '#', '@Koishi are you there?'], id: 2 }))
    const fromBot = () => received.filter(m => m.user === 'Koishi')
    const deadline = Date.now() + 8000
    while (fromBot().length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 25))
    expect(fromBot().map(m => m.content), JSON.stringify(received)).to.have.length(2)
    expect(fromBot()[0].content).to.equal('I heard: @Koishi are you there?')
    for (const m of fromBot()) expect(m).to.include({ channel: '#', platform: 'sandbox:bob' })
    expect(demo.offlineModel.requests - before).to.equal(1)
  })

  it('"remind me in 2 seconds: stretch" is kept: the bot says when, and reminds at that time (SPEC §25)', async () => {
    const received = await openConsole()
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:carol', 'carol', '@carol', 'remind me in 2 seconds: stretch'], id: 1 }))
    const fromBot = () => received.filter(m => m.user === 'Koishi').map(m => m.content)
    const deadline = Date.now() + 10_000
    while (fromBot().length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 25))
    expect(fromBot(), JSON.stringify(received)).to.have.length(2)
    expect(fromBot()[0]).to.match(/^Okay, task #\w{5}: I will remind you at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.$/)
    expect(fromBot()[1]).to.equal('⏰ stretch')
  })

  it('upkeep: what dave says of himself becomes a proposal for his note, waiting for the owner (SPEC §26)', async () => {
    const received = await openConsole()
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:dave', 'dave', '@dave', 'I play the violin in an orchestra'], id: 1 }))
    const deadline = Date.now() + 8000
    while (received.filter(m => m.user === 'Koishi').length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 25))
    const runtimes = await (demo.app as any).kotodama.list()
    const upkeep = runtimes[0].part(upkeepPart).upkeep
    const report = await upkeep.run('test')
    expect(report).to.include({ proposed: 1, applied: 0 })
    const [p] = upkeep.proposals().filter((x: any) => x.conversation === 'private:dave')
    expect(p).to.include({ state: 'pending', url: 'local://memory/people/sandbox/dave.md' })
    expect(p.change).to.deep.equal({ append: '- said: I play the violin in an orchestra\n' })
  })
})
