// SPEC §20 maxSeconds with SPEC §22: a voice's length is the decoded audio's, never a header's. A
// WAV whose header claims 1 s over 120 s of samples, a variable-bitrate MP3 whose first frame makes
// it look short, an Ogg Opus whose last granule claims 1 s: each is read at its real length, and
// one over maxSeconds never reaches the speech server (which bills the real length).
import { expect } from 'chai'
import { audioSeconds } from '../../src/voice/duration'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness } from '../support/onebot-harness'
import { MediaServer } from '../support/media-server'
import { mp3Frames, oggOpus, tone, wav } from '../support/audio-fixtures'
import { voicePart } from '../../src/voice/part'

/** A 16 kHz mono WAV of `seconds` whose data chunk claims `claim` seconds. */
function lyingWav(seconds: number, claim: number): Buffer {
  const file = wav(tone(seconds, { rate: 16000 }), { rate: 16000 })
  file.writeUInt32LE(claim * 16000 * 2, 40)
  file.writeUInt32LE(36 + claim * 16000 * 2, 4)
  return file
}

// 320 kbit/s first, then 32 kbit/s: at the first frame's bitrate the file looks 10 times shorter
const VBR = mp3Frames([320, ...Array(4000).fill(32)])
const VBR_SECONDS = 4001 * 1152 / 44100

describe('voice: length from the audio, never a header (SPEC §22)', function () {
  this.timeout(30000)

  it('reads the real length of a lying WAV, a variable-bitrate MP3 and a lying Ogg Opus', () => {
    expect(audioSeconds(lyingWav(120, 1), 'wav')).to.be.closeTo(120, 0.01)
    expect(audioSeconds(VBR, 'mp3')).to.be.closeTo(VBR_SECONDS, 0.01)
    expect(VBR_SECONDS).to.be.above(100)
    expect(audioSeconds(oggOpus(90, 1), 'ogg')).to.be.closeTo(90 - 312 / 48000, 0.01)
    // the truth is read as it is
    expect(audioSeconds(oggOpus(3), 'ogg')).to.be.closeTo(3 - 312 / 48000, 0.01)
    expect(audioSeconds(wav(tone(2, { rate: 16000 }), { rate: 16000 }), 'wav')).to.be.closeTo(2, 0.01)
    // a WAV with an impossible format: its length cannot be known
    const absurd = wav(tone(1, { rate: 16000 }), { rate: 16000 })
    absurd.writeUInt32LE(1 << 30, 24)
    expect(audioSeconds(absurd, 'wav')).to.equal(undefined)
  })

  describe('through NapCat: voices in a group that wake nothing', () => {
    let h: OneBotHarness
    let media: MediaServer
    before(async () => { media = await MediaServer.start() })
    after(() => media.close())
    afterEach(async () => { await h?.stop() })

    /** Posts `audio` as a record in a group, no mention; resolves with its transcript entry (the n-th of the test). */
    async function hear(audio: Buffer, name: string, n: number): Promise<any> {
      await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.record({ url: media.put(`/ptt/${name}`, audio) })] })
      let transcripts: any[] = []
      await h.until(async () => {
        const rt = (await h.app.kotodama.list())[0]
        if (!rt) return false
        await rt.part(voicePart)!.hearing!.idle()
        transcripts = (await rt.loaded()).flatMap(c => c.entries).filter(e => e.type === 'transcript')
        return transcripts.length >= n
      }, `the transcript of ${name}`)
      return transcripts[n - 1]
    }

    it('a long voice under a short header is not uploaded; a short one is', async () => {
      h = await OneBotHarness.start({ models: [{ id: 'ears', model: 'whisper-1' }], profile: { voice: { stt: 'ears', maxSeconds: 60 } } })
      const ears = h.server.transcriptions()
      ears.fallback({ text: 'hello there' })
      const liars = [['long.wav', lyingWav(120, 1), 120], ['vbr.mp3', VBR, VBR_SECONDS], ['long.ogg', oggOpus(90, 1), 90]] as const
      for (const [i, [name, audio, seconds]] of liars.entries()) {
        const entry = await hear(audio, name, i + 1)
        expect(entry.why, name).to.equal(`it is ${Math.round(seconds)} s long, over the 60 s limit`)
        expect(entry.text, name).to.equal(undefined)
      }
      expect(ears.requests, 'no long voice reached the speech server').to.have.length(0)
      const ok = await hear(wav(tone(2, { rate: 16000 }), { rate: 16000 }), 'short.wav', 4)
      expect(ok).to.include({ text: 'hello there' })
      expect(ears.requests).to.have.length(1)
      expect(h.server.requests, 'nothing woke the mind').to.have.length(0)
    })
  })
})
