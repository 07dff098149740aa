// What the voice specs check alike: a `<voice>` that could not be spoken went out as its words, and
// send_message's result said why (SPEC §20).
import { expect } from 'chai'
import { seg } from './fakes/onebot'
import { toolResultsOf } from './fake-openai'
import type { OneBotHarness } from './onebot-harness'

/** send_message's result as the model read it in request `i`. */
export const sendResult = (h: OneBotHarness, i: number) => JSON.parse(toolResultsOf(h.server.requests[i]).at(-1)!.content)

/** The first message NapCat got is `words` as text; the result is ok and drops one `<voice>` with `code` and a message like `message`. */
export async function expectSpokenAsText(h: OneBotHarness, words: string, code: string, message: RegExp): Promise<void> {
  const [sent] = await h.napcat.waitForSent(1)
  expect(sent.segments).to.deep.equal([seg.text(words)])
  await h.settled()
  const r = sendResult(h, 1)
  expect(r.ok).to.equal(true)
  expect(r.dropped).to.have.length(1)
  expect(r.dropped[0]).to.include({ code, src: `<voice>${words}</voice>` })
  expect(r.dropped[0].message).to.match(message)
}
