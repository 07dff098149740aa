// Speaking through Koishi's vits service (SPEC §20, `voice.tts: vits`), through the real
// koishi-plugin-adapter-onebot (6.9.4) and a fake NapCat: the service is the one vits plugins such as
// luna-vits provide (`ctx.vits.say({ input, speaker_id })` answering an audio element; faked in
// tests/support/fake-vits.ts), its WAV encoded as SILK for NapCat as the speech server's is.
import { expect } from 'chai'
import { h as el } from 'koishi'
import { decode } from 'silk-wasm'
import { FakeVits, VitsCall } from '../support/fake-vits'
import { speechSeconds } from '../support/fakes/wire/openai-audio'
import { OneBotHarness, call } from '../support/onebot-harness'
import { expectSpokenAsText, sendResult } from '../support/voice-checks'

const result = sendResult
const recordBytes = (s: { type: string; data: any }) => Buffer.from(String(s.data.file).replace(/^base64:\/\//, ''), 'base64')

describe('voice: speaking through the vits service', function () {
  this.timeout(30000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  /** A bot whose profile speaks through vits as `ttsVoice`; the fake vits plugin installed unless `vits` is null. */
  const start = async (vits: ConstructorParameters<typeof FakeVits>[1] | null = {}, ttsVoice = '3') => {
    h = await OneBotHarness.start({
      profile: { voice: { tts: 'vits', ttsVoice } },
      before: app => { if (vits) app.plugin(FakeVits, vits) },
    })
    return h
  }
  const ask = async (messages: string[]) => {
    h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }).fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'say something' })
  }

  it('<voice> is said by the vits service as ttsVoice\'s speaker_id and sent as a SILK record of its WAV', async () => {
    const calls: VitsCall[] = []
    await start({ calls })
    const words = '晚上好，今天也辛苦了'
    await ask([`<voice>${words}</voice>`])
    const [sent] = await h.napcat.waitForSent(1)
    expect(calls).to.deep.equal([{ input: words, speaker_id: 3 }])
    expect(sent.segments.map(s => s.type)).to.deep.equal(['record'])
    const silk = recordBytes(sent.segments[0])
    expect(silk.subarray(0, 10).toString('latin1')).to.equal('\x02#!SILK_V3')
    expect((await decode(silk, 24000)).duration / 1000).to.be.closeTo(speechSeconds(words), 0.1)
    await h.settled()
    const r = result(h, 1)
    expect(r).to.deep.include({ ok: true })
    expect(r.voices).to.have.length(1)
    expect(r.dropped ?? []).to.deep.equal([])
    // reading ctx.vits is declared (the plugin's optional inject): Koishi warns of nothing
    expect(h.warnings()).to.deep.equal([])
  })

  it('a speaker that is a name, not a number, is not passed as speaker_id', async () => {
    const calls: VitsCall[] = []
    await start({ calls }, '塔菲')
    await ask(['<voice>hello</voice>'])
    await h.napcat.waitForSent(1)
    expect(calls).to.deep.equal([{ input: 'hello' }])
  })

  const failures: [string, ConstructorParameters<typeof FakeVits>[1] | null, string, RegExp][] = [
    ['a vits service that throws', { fail: 'GPT-SoVITS is not running' }, 'speech_failed', /the vits service failed: GPT-SoVITS is not running/],
    // a link in its words (its server, a file of the platform) never reaches the model
    ['a vits service whose error names a link', { fail: 'GET https://grouptalk.c2c.qq.com/x?rkey=1 failed' }, 'speech_failed', /failed: GET <url> failed; the words were sent as text$/],
    // luna-vits answers a text element past its length limit
    ['a vits service that answers text', { answer: () => el.text('输入的字符串长度不能超过 100') }, 'speech_failed', /without an audio element/],
    ['no vits plugin installed', null, 'no_vits', /no vits service is installed/],
  ]
  for (const [what, vits, code, message] of failures) {
    it(`${what}: the words go as text and dropped says ${code}`, async () => {
      await start(vits)
      await ask(['<voice>see you at eight</voice>'])
      await expectSpokenAsText(h, 'see you at eight', code, message)
    })
  }
})
