// Voice on the console page (SPEC §20 "The console page plays voice messages, both ways, and shows
// their transcripts"): fact items carry the voices their lines hold, send items the voices they
// delivered with their words, and `kotodama/audio` hands the page something a browser plays — SILK
// decoded to a WAV, a browser's own formats as they are, nothing for AMR or bytes that are no audio —
// from a running runtime and from the home of one that is not running.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Context } from 'koishi'
import { decode } from 'silk-wasm'
import { registerAudio } from '../../src/koishi/console/audio'
import { conversationTranscript } from '../../src/console-data/summary'
import { sentVoices } from '../../src/console-data/sent-voices'
import { runtimeHome } from '../../src/runtime/runtime'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { OneBotHarness } from '../support/onebot-harness'
import { Harness, call } from '../support/harness'
import { seg } from '../support/fakes/onebot'
import { speechSeconds } from '../support/fakes/wire/openai-audio'
import { MediaServer } from '../support/media-server'
import { amrHeader, mp3Header, readWav, silk, tone, wav } from '../support/audio-fixtures'
import { tinyPng } from '../support/tiny-png'
import { captureListeners } from '../support/console-listeners'

/** the `kotodama/audio` listener on a stand-in console that records it (the real console checks the authority) */
function audioListener(app: Context): { send: (...a: any[]) => Promise<string | null>; authority?: number } {
  const { fn, authority } = captureListeners(app, registerAudio).got.get('kotodama/audio')!
  return { send: async (...a) => fn(...a), authority }
}

const dataOf = (url: string | null, type: string) => {
  expect(url).to.be.a('string').and.match(new RegExp(`^data:${type};base64,`))
  return Buffer.from(url!.slice(url!.indexOf(',') + 1), 'base64')
}
const dataUrl = (b: Buffer, type: string) => `data:${type};base64,${b.toString('base64')}`

describe('console: voice messages, both ways', function () {
  this.timeout(30000)

  describe('through a real OneBot adapter', () => {
    let h: OneBotHarness
    let media: MediaServer
    before(async () => { media = await MediaServer.start() })
    after(() => media.close())
    afterEach(async () => { await h?.stop() })

    it('the voice fact carries its length and words, the send its voice and words; both play as WAV of their length', async () => {
      h = await OneBotHarness.start({
        models: [{ id: 'ears', model: 'whisper-1' }, { id: 'mouth', model: 'tts-1' }],
        profile: { voice: { stt: 'ears', tts: 'mouth', ttsVoice: 'nova' } },
      })
      h.server.transcriptions().script({ text: '今晚一起打游戏吗' })
      h.server.speech().fallback({})
      const words = '好呀，八点见'
      h.server.script({ toolCalls: [call('send_message', { messages: ['嗯', `<voice>${words}</voice>`], continue: true })] })
        .fallback({ toolCalls: [call('finish', {})] })
      await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', segments: [seg.record({ url: media.put('/ptt/a.amr', await silk(tone(3))) })] })
      await h.napcat.waitForSent(2)
      await h.settled()
      const [runtime] = await h.app.kotodama.list()
      const t = (await conversationTranscript(runtime, 'private:2001'))!
      const fact = t.items.find(i => i.kind === 'fact') as any
      expect(fact.voices).to.have.length(1)
      const [heard] = fact.voices
      expect(heard).to.deep.include({ seconds: 3, text: '今晚一起打游戏吗' }).and.to.have.property('url').that.matches(/^asset:\/\/[\w-]+$/)
      // the text is what the mind read; the line is where the page puts the player
      expect(fact.text).to.equal(heard.line).and.to.equal(`[voice 3 s: ${heard.url}] "今晚一起打游戏吗"`)
      const send = (t.items.filter(i => i.kind === 'step') as any[]).flatMap(s => s.calls).find(c => c.tool === 'send_message').send
      expect(send).to.deep.include({ delivered: true, ids: 2 })
      expect(send.voices).to.have.length(1)
      expect(send.voices[0]).to.deep.include({ message: 1, text: words }).and.to.have.property('url').that.matches(/^asset:\/\/[\w-]+$/)

      const { send: audio, authority } = audioListener(h.app as unknown as Context)
      expect(authority).to.equal(4)
      for (const [url, seconds] of [[heard.url, 3], [send.voices[0].url, speechSeconds(words)]] as const) {
        const w = readWav(dataOf(await audio(runtime.profile.id, runtime.bot, url), 'audio/wav'))
        expect(w).to.include({ formatCode: 1, channels: 1, rate: 24000, bitsPerSample: 16 })
        expect(w.seconds).to.be.closeTo(seconds, 0.1)
      }
    })
  })

  describe('kotodama/audio', () => {
    let h: Harness | undefined
    afterEach(async () => {
      await h?.stop()
      h = undefined
    })
    const BOT = 'mock:514'

    it('from the home of a runtime not running: SILK as WAV, WAV and MP3 as they are, AMR and an image not at all', async () => {
      h = await Harness.start()
      const { send } = audioListener(h.app as unknown as Context)
      // what a runtime kept, before this Koishi started it: its asset store in its home
      const store = new AssetStore(join(runtimeHome(h.dataDir, 'neko', BOT), 'assets'))
      const pcm = tone(2.5)
      const silkBytes = await silk(pcm)
      const wavBytes = wav(tone(1), { rate: 16000 })
      const ids = {
        silk: await store.register(dataUrl(silkBytes, 'audio/amr'), { filename: 'voice.amr' }),
        wav: await store.register(dataUrl(wavBytes, 'application/octet-stream')),
        mp3: await store.register(dataUrl(mp3Header(), 'audio/mpeg')),
        amr: await store.register(dataUrl(amrHeader(), 'audio/amr')),
        png: await store.register(dataUrl(tinyPng(1), 'image/png')),
      }
      const play = (id: string) => send('neko', BOT, `asset://${id}`)
      const decoded = readWav(dataOf(await play(ids.silk), 'audio/wav'))
      expect(decoded).to.include({ rate: 24000, channels: 1 })
      // silk-wasm's own samples, whole
      expect(decoded.dataLength).to.equal((await decode(silkBytes, 24000)).data.byteLength)
      expect(decoded.seconds).to.be.closeTo(2.5, 0.1)
      // known by its bytes, not by the type it came with
      expect(dataOf(await play(ids.wav), 'audio/wav').equals(wavBytes)).to.equal(true)
      expect(dataOf(await play(ids.mp3), 'audio/mpeg').equals(mp3Header())).to.equal(true)
      expect(await play(ids.amr)).to.equal(null)
      expect(await play(ids.png)).to.equal(null)
      expect(await play('no-such-asset')).to.equal(null)
      expect(await h.app.kotodama.list(), 'the page started no runtime').to.have.length(0)
    })

    it('from a running runtime; only asset:// and artifact://; a damaged SILK is not played', async () => {
      h = await Harness.start()
      const { send } = audioListener(h.app as unknown as Context)
      const runtime = await h.app.kotodama.runtime(h.app.kotodama.profiles[0], BOT)
      const silkBytes = await silk(tone(1.2))
      const id = await runtime.assets.register(dataUrl(silkBytes, 'audio/silk'))
      expect(readWav(dataOf(await send('neko', BOT, `asset://${id}`), 'audio/wav')).seconds).to.be.closeTo(1.2, 0.1)
      const damaged = Buffer.concat([silkBytes.subarray(0, 10), Buffer.alloc(400, 0xff)])
      expect(await send('neko', BOT, `asset://${await runtime.assets.register(dataUrl(damaged, 'audio/silk'))}`)).to.equal(null)
      expect(await send('neko', BOT, 'file:///etc/passwd')).to.equal(null)
      expect(await send('neko', BOT, 'https://example.com/a.wav')).to.equal(null)
      let error: Error | undefined
      await send('nobody', BOT, `asset://${id}`).catch(e => { error = e })
      expect(error?.message).to.match(/no profile nobody/)
    })
  })

  describe('sentVoices: the voices of a send paired with their words', () => {
    it('in order, across messages, nested markup read as its words; a voice sent as text is skipped', () => {
      const input = { messages: ['<voice>one  <b>two</b></voice>', 'hm <voice>too long to say</voice>', 'x<voice>three</voice>'] }
      const dropped = [{ src: '<voice>too long to say</voice>', code: 'voice_too_long', message: '' }]
      const value = { ok: true, ids: ['1', '2', '3'], voices: ['asset://v1', 'asset://v3'], dropped }
      expect(sentVoices(input, value)).to.deep.equal([{ url: 'asset://v1', message: 0, text: 'one two' }, { url: 'asset://v3', message: 2, text: 'three' }])
    })

    it('no voices: nothing; text mode or words not found: the voice without words', () => {
      expect(sentVoices({ messages: ['<voice>a</voice>'] }, { ok: true, ids: ['1'] })).to.deep.equal([])
      const asText = { messages: ['<voice>a</voice>'], mode: 'text' }
      expect(sentVoices(asText, { ok: true, voices: ['asset://v'] })).to.deep.equal([{ url: 'asset://v', message: -1 }])
      expect(sentVoices(undefined, { ok: false, voices: ['asset://v', 42] })).to.deep.equal([{ url: 'asset://v', message: -1 }])
    })
  })
})
