// Hearing (SPEC §20) through the real koishi-plugin-adapter-onebot (6.9.4) and a fake NapCat: a
// `record` segment (NapCat's pttElement: a url, no duration) is fetched at arrival, recognised by its
// bytes, SILK decoded, and transcribed by an OpenAI-compatible /v1/audio/transcriptions (the fake
// checks the multipart fields a real server checks, tests/support/fakes/wire/openai-audio.ts).
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { toolResultsOf, transcriptionOf, userTexts } from '../support/fake-openai'
import { MediaServer } from '../support/media-server'
import { readWav, silk, silkWithout02, tone, truncated, wav } from '../support/audio-fixtures'
import { voicePart } from '../../src/voice/part'

const ASSET = 'asset://[\\w-]+'

/** `frames` AMR-NB frames of mode 4.75 kbit/s (13 bytes each, 20 ms): an AMR file the tests write themselves */
const amr = (frames: number) => Buffer.concat([Buffer.from('#!AMR\n'), Buffer.alloc(frames * 13, Buffer.from([0x04, ...Array(12).fill(0x55)]))])

describe('voice: hearing voice messages', function () {
  this.timeout(30000)
  let h: OneBotHarness
  let media: MediaServer
  before(async () => { media = await MediaServer.start() })
  after(() => media.close())
  afterEach(async () => { await h?.stop() })

  const start = async (voice: Record<string, unknown> = {}, ears: Record<string, unknown> = {}) => {
    h = await OneBotHarness.start({ models: [{ id: 'ears', model: 'whisper-1', ...ears }], profile: { voice: { stt: 'ears', ...voice } } })
    return h
  }
  const runtime = async () => (await h.app.kotodama.list())[0]
  /** Alice sends `audio` in a private chat (it wakes the mind): a record segment whose link serves those bytes, under a name that may lie. */
  const say = async (audio: Buffer, name = `${Math.random().toString(36).slice(2)}.amr`) => {
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', segments: [seg.record({ url: media.put(`/ptt/${name}`, audio) })] })
  }
  const aliceLines = (i = 0) => userTexts(h.server.requests[i]).split('\n').filter(l => l.includes('[voice'))

  it('a SILK voice is decoded, uploaded as WAV with its model, and the model reads its length and words', async () => {
    await start()
    h.server.transcriptions().script({ text: '今晚一起打游戏吗' })
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(await silk(tone(3)))
    const [upload] = await h.server.transcriptions().waitForRequests(1)
    const body = transcriptionOf(upload)
    expect(body.fields.model).to.equal('whisper-1')
    expect(body.file).to.include({ filename: 'audio.wav', contentType: 'audio/wav' })
    const sent = readWav(body.file!.data)
    expect(sent).to.include({ formatCode: 1, channels: 1, rate: 16000 })
    expect(sent.seconds).to.be.closeTo(3, 0.1)
    await h.server.waitForRequests(1)
    // the turn waited for the words: its first request has them
    expect(aliceLines()).to.have.length(1)
    expect(aliceLines()[0]).to.match(new RegExp(`\\[voice 3 s: ${ASSET}\\] "今晚一起打游戏吗"`))
    expect(JSON.stringify(h.server.requests[0].body.messages), 'a platform URL reached the model').to.not.match(/https?:\/\//)
  })

  it('SILK without its 0x02 byte, a stereo 44.1 kHz WAV named .amr and an AMR named .wav are known by their bytes', async () => {
    await start()
    h.server.transcriptions().fallback(req => ({ text: `heard ${transcriptionOf(req).file?.contentType}` }))
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await say(await silkWithout02(tone(2)))
    await say(wav(tone(1.5, { rate: 44100 }), { rate: 44100, channels: 2 }), 'x.amr')
    await say(amr(100), 'y.wav')
    await h.server.transcriptions().waitForRequests(3)
    // two are transcribed at once, so they may reach the server in another order than they arrived
    const files = h.server.transcriptions().requests.map(r => transcriptionOf(r).file!)
    expect(files.map(f => `${f.filename} ${f.contentType}`).sort()).to.deep.equal(['audio.amr audio/amr', 'audio.wav audio/wav', 'audio.wav audio/wav'])
    // the WAV goes as it came (only SILK is decoded): the decoded SILK is mono 16 kHz, the WAV stereo 44.1 kHz
    const wavs = files.filter(f => f.contentType === 'audio/wav').map(f => readWav(f.data))
    expect(wavs.map(w => `${w.channels} ${w.rate}`).sort()).to.deep.equal(['1 16000', '2 44100'])
    await (await runtime()).part(voicePart)!.hearing!.idle()
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'did you hear?' })
    await h.server.waitForRequests(h.server.requests.length + 1)
    const lines = aliceLines(h.server.requests.length - 1)
    expect(lines[0]).to.match(new RegExp(`\\[voice 2 s: ${ASSET}\\] "heard audio/wav"`))
    expect(lines[1]).to.match(new RegExp(`\\[voice 2 s: ${ASSET}\\] "heard audio/wav"`))
    // OpenAI's endpoint takes no AMR (the fake answers as it does); the fact says so and the conversation goes on
    expect(lines[2]).to.match(new RegExp(`\\[voice 2 s: ${ASSET}; not transcribed: the speech server failed: HTTP 400: .*Invalid file format`))
  })

  it('a transcript slower than the turn\'s wait joins the next request; the turn goes on with the placeholder', async () => {
    await start()
    const rt0 = async () => { const rt = await runtime(); if (rt?.part(voicePart)?.hearing) rt.part(voicePart)!.hearing!.waitMs = 300; return rt }
    // a first message starts the runtime, so the wait can be shortened before the voice arrives
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'listen' })
    await h.server.waitForRequests(1)
    await h.settled()
    await rt0()
    h.server.transcriptions().script({ text: 'the slow words', delayMs: 1500 })
    h.server.script({ toolCalls: [call('send_message', { messages: ['one sec'], continue: true })] }, { toolCalls: [call('finish', {})] })
    await say(await silk(tone(2)))
    await h.server.waitForRequests(2)
    expect(aliceLines(1).at(-1)).to.match(new RegExp(`^.*\\[voice: ${ASSET}\\]$`))
    await (await runtime()).part(voicePart)!.hearing!.idle()
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'well?' })
    await h.server.waitForRequests(4)
    expect(aliceLines(3).at(-1)).to.match(new RegExp(`\\[voice 2 s: ${ASSET}\\] "the slow words"`))
  })

  const failures: [string, () => Promise<Buffer>, Record<string, unknown>, RegExp][] = [
    ['a server error', () => silk(tone(1)), { status: 500, error: 'upstream exploded' }, /not transcribed: the speech server failed: HTTP 500: upstream exploded/],
    ['an empty text', () => silk(tone(1)), { text: '  ' }, /not transcribed: no words were heard/],
    ['damaged SILK', async () => Buffer.concat([(await silk(tone(1))).subarray(0, 10), Buffer.alloc(3000, 0xff)]), {}, /not transcribed: the SILK audio is damaged/],
    ['10 MB that are no audio', async () => Buffer.alloc(10 * 1024 * 1024, 0x41), {}, /\[voice: asset:\/\/[\w-]+; not transcribed: it is not audio kotodama knows/],
    ['a 30-minute recording', async () => amr(90000), {}, /\[voice 1800 s: asset:\/\/[\w-]+; not transcribed: it is 1800 s long, over the 60 s limit\]/],
  ]
  for (const [what, audio, reply, reads] of failures) {
    it(`${what}: the fact says why it was not transcribed, and the conversation goes on`, async () => {
      await start()
      h.server.transcriptions().fallback(reply)
      h.server.script({ toolCalls: [call('send_message', { messages: ['sorry, say it in words?'] })] })
      await say(await audio())
      const [sent] = await h.napcat.waitForSent(1)
      expect(sent.segments).to.deep.equal([seg.text('sorry, say it in words?')])
      expect(aliceLines()[0]).to.match(reads)
      expect(aliceLines()[0]).to.not.match(/https?:\/\//)
    })
  }

  it('a truncated SILK file is transcribed as far as it goes', async () => {
    await start()
    h.server.transcriptions().script(req => ({ text: `${readWav(transcriptionOf(req).file!.data).seconds > 0 ? 'part' : 'none'}` }))
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(truncated(await silk(tone(4)), 4000))
    await h.server.waitForRequests(1)
    expect(aliceLines()[0]).to.match(new RegExp(`\\[voice 1 s: ${ASSET}\\] "part"`))
  })

  it('a server that never answers is given up after the model\'s timeoutMs', async () => {
    await start({}, { timeoutMs: 400 })
    h.server.transcriptions().script({ hang: true })
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(await silk(tone(1)))
    await h.server.waitForRequests(1)
    expect(aliceLines()[0]).to.match(/not transcribed: the speech server failed: no answer within 400 ms \(timeout\)/)
  })

  it('recall finds what a voice said, and history:// shows it in its place', async () => {
    await start()
    h.server.transcriptions().script({ text: 'the password is swordfish' })
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(await silk(tone(2)))
    await h.server.waitForRequests(1)
    await h.settled()
    h.server.script({ toolCalls: [call('search', { query: 'swordfish' })] }, { toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'what did I say the password was?' })
    await h.server.waitForRequests(3)
    const found = toolResultsOf(h.server.requests[2]).at(-1)!.content
    expect(found).to.include('the password is swordfish').and.include('Alice')
  })

  it('without voice.stt a voice message reads as before and nothing is uploaded', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(await silk(tone(1)))
    await h.server.waitForRequests(1)
    expect(aliceLines()[0]).to.match(new RegExp(`\\[voice: ${ASSET}\\]$`))
    expect(h.server.transcriptions().requests).to.have.length(0)
  })
})
