// What addresses the mind and what it is shown of a quote (SPEC §22, issue 36 #7 and #8): a mention
// counts only in the message's own words (top level or plain formatting), never inside a forward,
// a quote or a <message>; a quoted message's text is shown only when this conversation holds that
// message, else the quote is its id alone. Through plugin-mock and through the real OneBot adapter
// against the fake NapCat, read from the requests the fake OpenAI server received.
import { expect } from 'chai'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { OneBotHarness } from '../support/onebot-harness'
import { seg } from '../support/fakes/onebot'
import { idle } from '../support/app-waits'
import { userTexts } from '../support/fake-openai'

/** every file under `dir`, with its text */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push({ path: join(e.parentPath, e.name), text: await readFile(join(e.parentPath, e.name), 'utf8') })
  }
  return out
}

describe('mentions count only in a message\'s own words (SPEC §22)', function () {
  this.timeout(30000)

  describe('through plugin-mock', () => {
    let h: Harness
    afterEach(async () => { await h?.stop() })

    it('an <at> of the bot inside a forward or a quote wakes nothing; one at the top or inside <b> does', async () => {
      h = await Harness.start()
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const alice = h.client('alice', 'room')
      await alice.receive('<message forward><message><author id="bob" name="Bob"/><at id="514"/> come look</message></message>')
      await alice.receive('see this <quote id="q-1"><at id="514"/> an old mention</quote>')
      await alice.receive('<message><at id="514"/> inside a message element</message>')
      await h.settled()
      await idle(200)
      expect(h.server.requests, 'a mention inside a forward, a quote or a message woke the mind').to.have.length(0)
      await alice.receive('<b><at id="514"/></b> now you')
      await h.server.waitForRequests(1)
      await h.settled()
      expect(userTexts(h.server.requests[0])).to.include('now you').and.include('come look')
    })
  })

  describe('through the real OneBot adapter and a fake NapCat', () => {
    let h: OneBotHarness
    afterEach(async () => { await h?.stop() })

    it("a forward holding an <at> of the bot or its name wakes nothing; the forwarder's own mention does", async () => {
      h = await OneBotHarness.start()
      h.server.fallback({ toolCalls: [call('finish', {})] })
      h.napcat.forward('fwd-at', [{ user: 2002, nickname: 'Bob', segments: [seg.at(10001), seg.text(' wake up')] }])
      h.napcat.forward('fwd-name', [{ user: 2003, nickname: 'Carol', segments: [seg.text('hey @Neko are you there')] }])
      await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.forward('fwd-at')] })
      await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.text('read this '), seg.forward('fwd-name')] })
      await idle(300)
      await h.settled()
      expect(h.server.requests, 'a mention inside a forward woke the mind').to.have.length(0)
      await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' did you see?')] })
      await h.server.waitForRequests(1)
      await h.settled()
      const read = userTexts(h.server.requests[0])
      expect(read).to.include('did you see?').and.include('Bob: <at id="10001"/> wake up')
    })
  })
})

describe("a quote's text only of this conversation's messages (SPEC §22)", function () {
  this.timeout(30000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  it("a reply to another chat's message shows its id alone, and its text is not kept; a reply to one held here shows its start", async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const elsewhere = await h.napcat.groupMessage({ group: 666, user: 2009, nickname: 'Carol', text: 'the launch code is 0451' })
    const here = await h.napcat.groupMessage({ group: 555, user: 2002, nickname: 'Bob', text: 'pizza tonight at eight?' })
    await h.settled()
    // NapCat's get_msg answers for any message id: the adapter hands the other chat's text as the quote's content
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.reply(elsewhere.message_id), seg.at(10001), seg.text(' is that so?')] })
    await h.server.waitForRequests(1)
    await h.settled()
    const first = userTexts(h.server.requests[0])
    expect(first).to.include(`(reply to #${elsewhere.message_id}) `).and.not.include('0451')
    const kept = (await filesUnder(h.dataDir)).filter(f => f.text.includes('0451')).map(f => f.path)
    expect(kept.every(p => p.includes('666')), `the other chat's text kept in ${kept.join(', ')}`).to.equal(true)
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.reply(here.message_id), seg.at(10001), seg.text(' yes!')] })
    await h.server.waitForRequests(2)
    await h.settled()
    expect(userTexts(h.server.requests[1])).to.include(`(reply to #${here.message_id} "pizza tonight at eight?") <at id="10001"/> yes!`)
  })
})
