// Voice (SPEC §20) on QQ's official API, through the real @satorijs/adapter-qq (4.11) and FakeQQ
// (tests/support/fakes/qq/). Speaking: QQ takes voice only as SILK (rich-media.md "资源格式要求"),
// and the adapter uploads an audio as is only when its first bytes hold `#!SILK` (without a
// silk/ntsilk or ffmpeg service it logs a warning and sends nothing), so kotodama encodes the
// speech server's WAV itself; the upload (`POST /v2/groups/{id}/files`, file_type 3, file_data) is
// answered with a file_info that a msg_type 7 message then carries (FakeQQ refuses anything else).
// Hearing: a voice arrives as an attachment with content_type `voice` (event.md; the adapter makes
// it an audio element), its link QQ's media host (here a MediaServer), its name `.amr` over SILK bytes.
import { expect } from 'chai'
import { decode } from 'silk-wasm'
import { mp3Header, silk, tone } from '../support/audio-fixtures'
import { speechSeconds } from '../support/fakes/wire/openai-audio'
import { toolResultsOf, transcriptionOf, userTexts } from '../support/fake-openai'
import { call } from '../support/harness'
import { MediaServer } from '../support/media-server'
import { QQHarness } from '../support/qq-harness'

const result = (h: QQHarness, i: number) => JSON.parse(toolResultsOf(h.server.requests[i]).at(-1)!.content)

describe('voice on QQ\'s official API', function () {
  this.timeout(30000)
  let h: QQHarness
  afterEach(async () => { await h?.stop() })

  describe('speaking', () => {
    const start = async () => {
      h = await QQHarness.start({ models: [{ id: 'mouth', model: 'tts-1' }], profile: { voice: { tts: 'mouth', ttsVoice: 'nova' } } })
      h.server.speech().fallback({})
    }
    const ask = (messages: string[]) => {
      h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }).fallback({ toolCalls: [call('finish', {})] })
      return h.qq.groupAt({ group: 'G1', member: 'M1', content: ' say something' })
    }

    it('<voice> is spoken as WAV, encoded as SILK, uploaded as file_type 3 and sent as a msg_type 7 passive reply', async () => {
      await start()
      const words = '好的，我马上就来，等我一下下'
      const g = ask([`<voice>${words}</voice>`])
      const [out] = await h.qq.waitForOutbound(1)
      await h.settled()
      expect(h.server.speech().requests[0].body).to.include({ model: 'tts-1', input: words, voice: 'nova', response_format: 'wav' })
      const [up] = h.qq.files.uploads
      expect(h.qq.files.uploads).to.have.length(1)
      expect(up).to.include({ scene: 'group', chat: 'G1', fileType: 3, srvSendMsg: false })
      expect(up.error).to.equal(undefined)
      expect(up.request.path).to.equal('/v2/groups/G1/files')
      expect(up.data!.subarray(0, 10).toString('latin1')).to.equal('\x02#!SILK_V3')
      expect((await decode(up.data!, 24000)).duration / 1000).to.be.closeTo(speechSeconds(words), 0.1)
      // the message carries the upload's file_info, answering the group message
      expect(out.error).to.equal(undefined)
      expect(out.body).to.deep.include({ msg_type: 7, msg_id: g.id, msg_seq: 1 })
      expect(out.body.media.file_info).to.equal(up.fileInfo)
      expect(out.media).to.equal(up)
      expect(out.kind).to.equal('passive')
      const r = result(h, 1)
      expect(r).to.deep.include({ ok: true, ids: [out.id] })
      expect(r.voices).to.have.length(1).and.to.match(/^asset:\/\/[\w-]+$/)
      expect(r.dropped ?? []).to.deep.equal([])
      expect(h.warnings()).to.deep.equal([])
    })

    it('in a single chat the voice is uploaded through /v2/users/{openid}/files and answers there', async () => {
      await start()
      h.server.script({ toolCalls: [call('send_message', { messages: ['<voice>hello</voice>'] })] }).fallback({ toolCalls: [call('finish', {})] })
      const d = h.qq.c2c({ user: 'U1', content: 'say hello' })
      const [out] = await h.qq.waitForOutbound(1)
      expect(h.qq.files.uploads.map(u => [u.request.path, u.fileType, u.error?.code ?? 'ok'])).to.deep.equal([['/v2/users/U1/files', 3, 'ok']])
      expect(out.request.path).to.equal('/v2/users/U1/messages')
      expect(out.body).to.deep.include({ msg_type: 7, msg_id: d.id })
      expect(out.body.media.file_info).to.equal(h.qq.files.uploads[0].fileInfo)
      expect(out.error).to.equal(undefined)
    })

    it('a speech server answering MP3: nothing is uploaded, the words go as text, dropped says needs_silk', async () => {
      await start()
      h.server.speech().fallback({ audioOf: () => ({ data: mp3Header(), contentType: 'audio/mpeg' }) })
      const g = ask(['<voice>see you at eight</voice>'])
      const [out] = await h.qq.waitForOutbound(1)
      await h.settled()
      expect(h.qq.files.uploads).to.deep.equal([])
      expect(out.body).to.deep.include({ msg_type: 0, content: 'see you at eight', msg_id: g.id })
      expect(out.error).to.equal(undefined)
      const r = result(h, 1)
      expect(r.ok).to.equal(true)
      expect(r.dropped).to.have.length(1)
      expect(r.dropped[0]).to.include({ code: 'needs_silk', src: '<voice>see you at eight</voice>' })
      expect(r.dropped[0].message).to.match(/only as SILK.*sent mp3/)
    })
  })

  describe('hearing', () => {
    let media: MediaServer
    before(async () => { media = await MediaServer.start() })
    after(() => media.close())

    it('a group voice (content_type voice, SILK named .amr) is transcribed by voice.stt; the model reads its length and words, no URL', async () => {
      h = await QQHarness.start({ models: [{ id: 'ears', model: 'whisper-1' }], profile: { voice: { stt: 'ears' } } })
      h.server.transcriptions().script({ text: '今晚一起打游戏吗' })
      h.server.script({ toolCalls: [call('finish', {})] })
      const voice = await silk(tone(3))
      const url = media.put('/download/voice-1', voice)
      h.qq.groupAt({ group: 'G1', member: 'M1', content: '', attachments: [
        { content_type: 'voice', filename: 'B43A0CF83A2D80BB.amr', size: voice.length, url },
      ] })
      const [upload] = await h.server.transcriptions().waitForRequests(1)
      const body = transcriptionOf(upload)
      expect(body.fields.model).to.equal('whisper-1')
      expect(body.file).to.include({ filename: 'audio.wav', contentType: 'audio/wav' })
      await h.server.waitForRequests(1)
      const lines = userTexts(h.server.requests[0]).split('\n').filter(l => l.includes('[voice'))
      expect(lines).to.have.length(1)
      expect(lines[0]).to.match(/\[voice 3 s: asset:\/\/[\w-]+\] "今晚一起打游戏吗"/)
      expect(JSON.stringify(h.server.requests[0].body.messages), 'a platform URL reached the model').to.not.match(/https?:\/\/|rkey/)
      expect(media.fetches.get('/download/voice-1')).to.equal(1)
    })
  })
})
