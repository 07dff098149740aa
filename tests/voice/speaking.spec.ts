// Speaking (SPEC §20) through the real koishi-plugin-adapter-onebot (6.9.4) and a fake NapCat:
// `<voice>` in send_message is synthesized by an OpenAI-compatible /v1/audio/speech (the fake checks
// `model`, `input`, `voice`, `response_format` as OpenAI's "Create speech" does), encoded as SILK (NapCat
// needs ffmpeg for anything else: NapCatQQ #222, #699) and sent as a `record` segment with the bytes
// (the adapter's OneBotMessageEncoder: `audio` → `record`, a data: URL → `base64://`).
import { expect } from 'chai'
import { decode } from 'silk-wasm'
import { speechSeconds } from '../support/fakes/wire/openai-audio'
import { OneBotHarness, call } from '../support/onebot-harness'
import { expectSpokenAsText, sendResult } from '../support/voice-checks'
import { seg } from '../support/fakes/onebot'
import { mp3Header } from '../support/audio-fixtures'

const result = sendResult
const recordBytes = (s: { type: string; data: any }) => Buffer.from(String(s.data.file).replace(/^base64:\/\//, ''), 'base64')

describe('voice: speaking', function () {
  this.timeout(30000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  const start = async (voice: Record<string, unknown> = {}) => {
    h = await OneBotHarness.start({ models: [{ id: 'mouth', model: 'tts-1' }], profile: { voice: { tts: 'mouth', ttsVoice: 'nova', ...voice } } })
    // the fake's default: the tone its wire makes for the input, in the format asked
    h.server.speech().fallback({})
    return h
  }
  const ask = async (messages: string[]) => {
    h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }).fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'say something' })
  }

  it('<voice> is spoken by the speech model, sent as a SILK record, after a pause as long as the speech', async () => {
    await start()
    const words = '好的，我马上就来，等我一下下'
    await ask(['嗯', `<voice>${words}</voice>`])
    const sent = await h.napcat.waitForSent(2)
    const [req] = h.server.speech().requests
    expect(req.body).to.include({ model: 'tts-1', input: words, voice: 'nova', response_format: 'wav' })
    expect(sent[1].segments.map(s => s.type)).to.deep.equal(['record'])
    const silk = recordBytes(sent[1].segments[0])
    expect(silk.subarray(0, 10).toString('latin1')).to.equal('\x02#!SILK_V3')
    const pcm = await decode(silk, 24000)
    expect(pcm.duration / 1000).to.be.closeTo(speechSeconds(words), 0.1)
    // the typing pause before the voice is its speech (text messages here take 1-5 ms)
    expect(sent[1].at - sent[0].at).to.be.at.least(speechSeconds(words) * 1000 - 50)
    await h.settled()
    const r = result(h, 1)
    expect(r).to.deep.include({ ok: true, ids: sent.map(s => String(s.message_id)) })
    // the voice is kept: the console plays it, and it could be sent again
    expect(r.voices).to.have.length(1).and.to.match(/^asset:\/\/[\w-]+$/)
    const rt = (await h.app.kotodama.list())[0]
    expect((await rt.assets.bytes(r.voices[0].slice(8))).data.equals(silk)).to.equal(true)
  })

  it('the system prompt and the tool say the mind can speak only when voice.tts is set', async () => {
    await start()
    await ask(['hi'])
    await h.server.waitForRequests(1)
    const system = JSON.stringify(h.server.requests[0].body.messages[0])
    const tool = JSON.stringify(h.server.requests[0].body.tools.find((t: any) => t.function.name === 'send_message'))
    expect(system).to.include('<voice>words</voice>')
    expect(tool).to.include('<voice>words</voice>')
    await h.stop()
    h = await OneBotHarness.start()
    await ask(['hi'])
    await h.server.waitForRequests(1)
    expect(JSON.stringify(h.server.requests[0].body)).to.not.include('<voice>')
  })

  const fallbacks: [string, Record<string, unknown>, () => void, string, RegExp][] = [
    ['a server error', {}, () => h.server.speech().fallback({ status: 500, error: 'no GPU left' }), 'speech_failed', /HTTP 500: no GPU left/],
    ['JSON instead of audio', {}, () => h.server.speech().fallback({ json: { error: 'quota' } }), 'not_audio', /sent no audio: \{"error":"quota"\}/],
    ['text past maxChars', { maxChars: 5 }, () => {}, 'voice_too_long', /longer than 5 characters/],
    ['an empty answer', {}, () => h.server.speech().fallback({ audioOf: () => ({ data: Buffer.alloc(0), contentType: 'audio/wav' }) }), 'not_audio', /empty answer/],
  ]
  for (const [what, voice, script, code, message] of fallbacks) {
    it(`${what}: the words go as text and dropped says why`, async () => {
      await start(voice)
      script()
      await ask(['<voice>see you at eight</voice>'])
      await expectSpokenAsText(h, 'see you at eight', code, message)
    })
  }

  it('without voice.tts, <voice> is sent as its words and reported', async () => {
    h = await OneBotHarness.start()
    await ask(['<voice>hello <b>there</b></voice>'])
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('hello there')])
    await h.settled()
    expect(result(h, 1).dropped[0]).to.include({ code: 'voice_off' })
  })

  it('a server that answers MP3 though asked for WAV: sent as it came, for NapCat to convert', async () => {
    await start()
    h.server.speech().fallback({ audioOf: () => ({ data: mp3Header(), contentType: 'audio/mpeg' }) })
    await ask(['<voice>see you</voice>'])
    const [sent] = await h.napcat.waitForSent(1)
    expect(recordBytes(sent.segments[0]).equals(mp3Header())).to.equal(true)
  })

  it('markup inside <voice> is not spoken: only its words are', async () => {
    await start()
    await ask(['<voice>good <at id="2001"/>night <img src="x"/>all</voice>'])
    await h.napcat.waitForSent(1)
    expect(h.server.speech().requests[0].body.input).to.equal('good night all')
  })
})
