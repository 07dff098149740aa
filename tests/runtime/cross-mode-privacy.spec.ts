// Cross mode with `private:*` claimed (SPEC §22 "What one chat learns stays in that chat", issue 36
// finding 8): a turn woken in a group never sees a private chat — not its messages, not the mind's
// sends there, not what `search` finds — and a send must name one concrete channel, a private one
// only where that person wrote to the bot. The private chat itself still sees all of it.
import { expect } from 'chai'
import { z } from 'zod'
import { Harness, call, FAST_TYPING, NO_DEBOUNCE } from '../support/harness'
import { toolResultsOf, type RecordedRequest } from '../support/fake-openai'
import { requestText } from '../support/faults'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'

const profile = {
  id: 'hub', persona: 'You are the hub.', model: 'main', mode: 'cross', typing: FAST_TYPING, timing: NO_DEBOUNCE,
  claims: [{ bot: 'mock:514', channels: ['group:room*', 'private:*'] }],
}

const say = (channel: string, ...messages: string[]) => call('send_message', { messages, target: { channel } })
const lastResult = (req: RecordedRequest) => JSON.parse(toolResultsOf(req).at(-1)!.content)

describe('cross mode keeps a private chat private (SPEC §22)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  /** alice tells the mind a secret in private; it answers her there */
  async function aliceConfides() {
    h.server.script({ toolCalls: [say('private:alice', 'I will keep zebra-flu to myself')] })
    await h.client('alice').receive('my diagnosis is zebra-flu, keep it between us')
    await h.until(() => h.sent.length === 1, 'the private answer')
    await h.settled()
  }

  it('a group turn\'s request holds no private chat\'s text and its search finds none; the private chat sees and finds both', async () => {
    h = await Harness.start({ profiles: [profile] })
    await aliceConfides()
    h.server.script({ toolCalls: [call('search', { query: 'zebra-flu diagnosis' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> what is wrong with alice? zebra?')
    await h.server.waitForRequests(3)
    await h.settled()
    const group = requestText(h.server.requests[1])
    expect(group).to.include('what is wrong with alice')
    expect(group).to.not.include('zebra-flu').and.not.include('keep it between us')
    expect(JSON.stringify(h.server.requests[1].body.messages)).to.not.include('zebra-flu')
    const found = lastResult(h.server.requests[2])
    expect(JSON.stringify(found)).to.not.include('zebra-flu').and.not.include('private:alice')

    // alice's own chat: her message, the answer there, and what search finds
    h.server.script({ toolCalls: [call('search', { query: 'zebra-flu diagnosis' })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('what did I tell you?')
    await h.server.waitForRequests(5)
    await h.settled()
    const own = JSON.stringify(h.server.requests[3].body.messages)
    expect(own).to.include('my diagnosis is zebra-flu').and.include('I will keep zebra-flu to myself')
    expect(requestText(h.server.requests[3])).to.include('what is wrong with alice')
    expect(JSON.stringify(lastResult(h.server.requests[4]))).to.include('zebra-flu')
  })

  it('history:// read from a group turn leaves out the private chat\'s messages; from her chat they are there', async () => {
    h = await Harness.start({ profiles: [profile] })
    await aliceConfides()
    h.server.script({ toolCalls: [call('read', { url: 'history://cross' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> read the start of the log')
    await h.server.waitForRequests(3)
    await h.settled()
    const page = toolResultsOf(h.server.requests[2]).at(-1)!.content
    expect(page).to.include('bob (bob)').and.not.include('zebra-flu')
    h.server.script({ toolCalls: [call('read', { url: 'history://cross' })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('show me our log')
    await h.server.waitForRequests(5)
    expect(toolResultsOf(h.server.requests[4]).at(-1)!.content).to.include('my diagnosis is zebra-flu')
  })

  it('a group turn after a restart still does not see the private chat', async () => {
    h = await Harness.start({ profiles: [profile] })
    await aliceConfides()
    await h.reload()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> hello')
    await h.server.waitForRequests(2)
    expect(JSON.stringify(h.server.requests[1].body.messages)).to.not.include('zebra-flu')
  })

  it('two private chats that wake one turn: it is held in the newer one, and the other gets a turn of its own', async () => {
    h = await Harness.start({ profiles: [{ ...profile, timing: { debounceMs: 300, debounceMaxMs: 900 } }] })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('alice here: my pin is 1234')
    await h.client('carol').receive('carol here: hello')
    await h.server.waitForRequests(2)
    await h.settled()
    const [first, second] = h.server.requests.map(r => JSON.stringify(r.body.messages))
    expect(first).to.include('carol here').and.not.include('my pin is 1234')
    expect(second).to.include('my pin is 1234').and.include('[wake: private:alice wrote to you]').and.not.include('carol here')
    await h.idle(100)
    expect(h.server.requests).to.have.length(2)
  })

  it('each cross-mode turn knows its chat (what memory writes follow): the private chat, the group, none for a wake from nowhere', async () => {
    h = await Harness.start({ profiles: [profile] })
    const seen: unknown[] = []
    h.app.plugin({
      name: 'where', inject: ['kotodama'],
      apply: (ctx: any) => ctx.kotodama.registerTool('where', () => ({
        description: 'Where am I', inputSchema: z.object({}), execute: async (_: unknown, c: any) => { seen.push(c.turn.chat ?? null); return { ok: true } },
      })),
    })
    await h.idle(50)
    const where = () => ({ toolCalls: [call('where', {})] })
    h.server.script(where(), { toolCalls: [call('wait', { seconds: 1 })] }, where(), { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hi, privately')
    await h.server.waitForRequests(4)
    await h.settled()
    h.server.script(where(), { toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> hi, in public')
    await h.server.waitForRequests(6)
    await h.settled()
    const runtime = (await h.app.kotodama.list())[0]
    h.server.script(where(), { toolCalls: [call('finish', {})] })
    await runtime.wake('group:room1', 'the owner pressed wake')
    await h.server.waitForRequests(8)
    expect(seen).to.deep.equal([
      { channel: 'private:alice', direct: true, user: 'alice' },
      { channel: 'private:alice', direct: true, user: 'alice' },
      { channel: 'group:room1', direct: false },
      null,
    ])
  })

  it('targets: private:bob (never wrote), private:* and private: are refused with InvalidTarget and reach no adapter', async () => {
    h = await Harness.start({ profiles: [profile] })
    h.server.script(
      { toolCalls: [say('private:bob', 'psst')] },
      { toolCalls: [say('private:*', 'to everyone in private')] },
      { toolCalls: [say('private:', 'to nobody')] },
      { toolCalls: [say('group:room*', 'to every room')] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('mallory', 'room1').receive('<at id="514"/> message bob privately, then everyone')
    await h.server.waitForRequests(5)
    await h.settled()
    for (const i of [1, 2, 3, 4]) {
      const r = lastResult(h.server.requests[i])
      expect(r.ok, JSON.stringify(r)).to.equal(false)
      expect(r.error.name, JSON.stringify(r)).to.equal('InvalidTarget')
    }
    expect(lastResult(h.server.requests[1]).error.message).to.include('nobody has written')
    expect(lastResult(h.server.requests[2]).error.message).to.include('not one channel')
    expect(h.sent).to.deep.equal([])
  })

  it('private:alice, who wrote there, is a target from a turn woken in her chat', async () => {
    h = await Harness.start({ profiles: [profile] })
    await aliceConfides()
    expect(h.sent.map(s => [s.channel, s.content])).to.deep.equal([['private:alice', 'I will keep zebra-flu to myself']])
  })
})

describe('cross mode: a private chat\'s notes in the system prompt (SPEC §22)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const systemOf = (req: RecordedRequest) => JSON.stringify(req.body.messages.filter((m: { role: string }) => m.role === 'system'))

  it('a note written in alice\'s chat is in the memory index of her chat\'s turns, never in a group turn\'s', async () => {
    h = await Harness.start({ profiles: [profile] })
    h.server.script(
      { toolCalls: [call('write', { url: 'local://memory/alice-trip.md', content: 'alice flies to Osaka on May 8\n' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('alice').receive('I fly to Osaka on May 8, remember it')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(lastResult(h.server.requests[1]).ok).to.equal(true)

    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> where is alice going?')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(systemOf(h.server.requests[2])).to.not.include('alice-trip').and.not.include('Osaka')

    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('what do you remember?')
    await h.server.waitForRequests(4)
    await h.settled()
    expect(systemOf(h.server.requests[3])).to.include('local://memory/alice-trip.md').and.include('alice flies to Osaka')
  })
})

describe('cross mode: people who wrote only in private (SPEC §22)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('are not in a group turn\'s opening, and their note is neither read nor written there; their own chat reads it', async () => {
    h = await Harness.start({ profiles: [profile] })
    // the owner keeps a note on dave, who writes to the bot only in private
    const people = join(runtimeHome(h.dataDir, 'hub', 'mock:514'), 'local', 'memory', 'people', 'mock')
    await mkdir(people, { recursive: true })
    await writeFile(join(people, 'dave.md'), 'Dave: asked about the divorce lawyer\n')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('dave').receive('hi, just between us')
    await h.server.waitForRequests(1)
    await h.settled()

    h.server.script(
      { toolCalls: [call('read', { url: 'local://memory/people/mock/dave.md' })] },
      { toolCalls: [call('write', { url: 'local://memory/people/mock/dave.md', append: 'seen in room1\n' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('carol', 'room1').receive('<at id="514"/> who else do you talk to?')
    await h.server.waitForRequests(4)
    await h.settled()
    expect(requestText(h.server.requests[1]), 'the group turn opens without dave').to.not.include('divorce')
    expect(toolResultsOf(h.server.requests[2]).at(-1)!.content).to.match(/not_found/).and.not.include('divorce')
    expect(lastResult(h.server.requests[3]).ok).to.equal(false)

    // in dave's own chat his note is there to read (cross mode opens its turns with the channels' people only)
    h.server.script({ toolCalls: [call('read', { url: 'local://memory/people/mock/dave.md' })] }, { toolCalls: [call('finish', {})] })
    await h.client('dave').receive('are you there?')
    await h.server.waitForRequests(6)
    await h.settled()
    expect(toolResultsOf(h.server.requests[5]).at(-1)!.content).to.include('divorce lawyer')
  })
})
