// The voice part's pieces alone (SPEC §20): formats from bytes, lengths, WAV, SILK both ways, what
// a speech server's answer becomes for each platform, transcripts applied to facts, and the config.
import { expect } from 'chai'
import { decode } from 'silk-wasm'
import { configSchema } from '../../src/runtime/config-of-parts'
import { DEFAULT_VOICE, type VoiceConfig } from '../../src/voice/config'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { FactAmendments } from '../../src/history/amendments'
import type { Entry } from '../../src/history/entries'
import { entryProblem } from '../../src/history/entry-shape'
import { voiceLine, withVoiceHeard } from '../../src/history/voice-line'
import { audioOf, voiceFormat } from '../../src/resources/audio-format'
import { sniffMediaType } from '../../src/resources/media-type'
import { EntryTail } from '../../src/runtime/entry-tail'
import { capabilitiesOf, voiceFormatOf } from '../../src/koishi/presence/capabilities'
import { audioSeconds } from '../../src/voice/duration'
import { decodeSilk, encodeSilk, silkSeconds } from '../../src/voice/silk'
import { readyVoice } from '../../src/voice/spoken-audio'
import { pcmToWav, resample, wavSeconds, wavToPcm } from '../../src/voice/wav'
import { amrHeader, mp3Frames, mp3Header, oggHeader, silk, silkWithout02, tone, wav } from '../support/audio-fixtures'

/** The message `p` rejects with (it must reject). */
async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e: any) {
    return e.message
  }
  throw new Error('it did not reject')
}

const amr = (frames: number) => Buffer.concat([Buffer.from('#!AMR\n'), Buffer.alloc(frames * 13, Buffer.from([0x04, ...Array(12).fill(0x55)]))])

describe('voice: formats and lengths from bytes', () => {
  it('knows each voice format by its header, never by a name', async () => {
    const cases: [Buffer, string | undefined, boolean?][] = [
      [await silk(tone(0.2)), 'silk', true],
      [await silkWithout02(tone(0.2)), 'silk', false],
      [amrHeader(), 'amr'],
      [Buffer.from('#!AMR-WB\n\x04'), 'amr-wb'],
      [wav(tone(0.1)), 'wav'],
      [oggHeader(), 'ogg'],
      [Buffer.from('fLaC\0\0\0\x22'), 'flac'],
      [mp3Header(), 'mp3'],
      [Buffer.from('{"error":"quota"}'), undefined],
      [Buffer.from('#!SIL'), undefined],
    ]
    for (const [bytes, format, qq] of cases) {
      const found = audioOf(bytes, sniffMediaType(bytes))
      expect(found?.format, `${bytes.subarray(0, 10).toString('latin1')}`).to.equal(format)
      if (qq !== undefined) expect(!!found?.qq).to.equal(qq)
    }
    // the general sniff names them too, so a sidecar says what the bytes are
    expect(sniffMediaType(await silk(tone(0.2)))).to.equal('audio/silk')
    expect(sniffMediaType(amrHeader())).to.equal('audio/amr')
    expect(sniffMediaType(wav(tone(0.1)))).to.equal('audio/wav')
    expect(voiceFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).to.equal(undefined)
  })

  it('reads lengths: SILK frames, WAV data (mono, stereo, float, streamed), AMR frames, FLAC, MP3 frames and Ogg', async () => {
    expect(silkSeconds(await silk(tone(3)))).to.be.closeTo(3, 0.05)
    expect(silkSeconds(await silkWithout02(tone(2)))).to.be.closeTo(2, 0.05)
    expect(wavSeconds(wav(tone(1.5)))).to.be.closeTo(1.5, 0.001)
    expect(wavSeconds(wav(tone(1.5, { rate: 44100 }), { rate: 44100, channels: 2 }))).to.be.closeTo(1.5, 0.001)
    expect(wavSeconds(wav(tone(1), { bitsPerSample: 32 }))).to.be.closeTo(1, 0.001)
    const streamed = wav(tone(1))
    streamed.writeUInt32LE(0, 40)
    expect(wavSeconds(streamed)).to.be.closeTo(1, 0.001)
    expect(audioSeconds(amr(250), 'amr')).to.be.closeTo(5, 0.001)
    const flac = Buffer.alloc(26)
    flac.write('fLaC', 0, 'latin1')
    // STREAMINFO: 44100 Hz (20 bits from byte 18), 441000 samples (36 bits from byte 21)
    flac[18] = 44100 >> 12; flac[19] = (44100 >> 4) & 0xff; flac[20] = (44100 & 0x0f) << 4
    flac.writeUInt32BE(441000, 22)
    expect(audioSeconds(flac, 'flac')).to.equal(10)
    // 115 MPEG-1 layer III frames of 1152 samples at 44.1 kHz: counted frame by frame
    expect(audioSeconds(mp3Frames(Array(115).fill(128)), 'mp3')).to.be.closeTo(3, 0.01)
    const ogg = Buffer.concat([oggHeader(), Buffer.from('OggS\0\x04'), Buffer.alloc(8), Buffer.alloc(20)])
    ogg.writeBigUInt64LE(BigInt(48000 * 7), oggHeader().length + 6)
    expect(audioSeconds(ogg, 'ogg')).to.be.closeTo(7, 0.01)
  })
})

describe('voice: WAV and SILK', () => {
  it('reads stereo, float and 8-bit WAV as mono 16-bit, and refuses what it cannot read in words', () => {
    const pcm = tone(0.5)
    const stereo = wavToPcm(wav(pcm, { channels: 2 }))
    expect(stereo.rate).to.equal(24000)
    expect(stereo.data.equals(pcm)).to.equal(true)
    const float = wavToPcm(wav(pcm, { bitsPerSample: 32 }))
    expect(Math.abs(float.data.readInt16LE(200) - pcm.readInt16LE(200))).to.be.below(3)
    const alaw = wav(pcm)
    alaw.writeUInt16LE(6, 20)
    expect(() => wavToPcm(alaw)).to.throw(/cannot read \(format 6/)
    expect(() => wavToPcm(Buffer.from('not a wav at all'))).to.throw('not a WAV file')
    expect(wavSeconds(pcmToWav({ data: pcm, rate: 24000 }))).to.be.closeTo(0.5, 0.001)
  })

  it('resamples to the rate asked, keeping the length in seconds', () => {
    const at22 = resample({ data: tone(2, { rate: 22050 }), rate: 22050 }, 24000)
    expect(at22.data.length / 2 / 24000).to.be.closeTo(2, 0.001)
  })

  it('encodes PCM at a rate SILK lacks (22.05 kHz), and decodes both forms to the same length', async () => {
    const encoded = await encodeSilk({ data: tone(2, { rate: 22050 }), rate: 22050 })
    expect(encoded.data.subarray(0, 10).toString('latin1')).to.equal('\x02#!SILK_V3')
    expect(encoded.seconds).to.be.closeTo(2, 0.05)
    expect((await decode(encoded.data, 24000)).duration / 1000).to.be.closeTo(2, 0.1)
    const bare = await decodeSilk(encoded.data.subarray(1))
    expect(bare.rate).to.equal(16000)
    expect(bare.data.length / 2 / 16000).to.be.closeTo(2, 0.05)
    expect(await rejection(encodeSilk({ data: Buffer.alloc(0), rate: 24000 }))).to.match(/no sound/)
  })
})

describe('voice: a speech server\'s answer made ready for the platform', () => {
  it('WAV becomes SILK where the platform wants it, goes as it is elsewhere; MP3 is refused only where SILK is a must', async () => {
    const spoken = wav(tone(1.2))
    const qq = await readyVoice(spoken, 'hi', 'silk')
    expect(qq).to.include({ mediaType: 'audio/silk' })
    expect(qq.seconds).to.be.closeTo(1.2, 0.05)
    expect((await readyVoice(spoken, 'hi', undefined)).mediaType).to.equal('audio/wav')
    expect((await readyVoice(mp3Header(), 'hi', 'silk-preferred')).mediaType).to.equal('audio/mpeg')
    expect(await rejection(readyVoice(mp3Header(), 'hi', 'silk'))).to.match(/takes voice only as SILK .* sent mp3: set it to answer wav/)
    expect(await rejection(readyVoice(Buffer.from('{"error":{"message":"quota"}}'), 'hi', 'silk')))
      .to.equal('the speech server sent no audio: {"error":{"message":"quota"}}')
    expect(await rejection(readyVoice(Buffer.from([0, 1, 2, 3, 200]), 'hi', undefined))).to.match(/5 bytes of no known format/)
  })
})

describe('voice: transcripts in the history', () => {
  const url = 'asset://0193-voice'
  const fact = (id: string, content: string): Entry => ({
    type: 'fact', at: 1, fact: { id, at: 1, bot: 'onebot:1', channel: 'group:1', direct: false, user: { id: 'u1', name: 'Ann' }, content },
  })
  const transcript = (o: Partial<Extract<Entry, { type: 'transcript' }>>): Entry => ({
    type: 'transcript', at: 2, url, message: { id: 'm1', channel: 'group:1', user: { id: 'u1', name: 'Ann' } }, ...o,
  })
  const contentOf = (e: Entry | undefined) => e?.type === 'fact' ? e.fact.content : undefined

  it('a transcript fills in its voice\'s line, escaped as markup, whether it comes after the fact or before it', () => {
    const tail = new EntryTail(() => 100)
    const stored = [fact('m1', `[voice: ${url}]`)]
    tail.push(stored)
    tail.push([transcript({ seconds: 4.4, text: 'a <b> & "c"' })])
    expect(contentOf(tail.entries[0])).to.equal(`[voice 4 s: ${url}] "a &lt;b&gt; &amp; "c""`)
    expect(contentOf(stored[0]), 'the stored fact is not changed').to.equal(`[voice: ${url}]`)
    const early = new EntryTail(() => 100)
    early.push([transcript({ why: 'no words were heard', seconds: 2 })])
    early.push([fact('m1', `hi [voice: ${url}]`)])
    expect(contentOf(early.entries[1])).to.equal(`hi [voice 2 s: ${url}; not transcribed: no words were heard]`)
  })

  it('a recalled voice stays recalled; a line for another voice is left alone; reload applies the same', () => {
    const a = new FactAmendments()
    const entries: Entry[] = [fact('m1', `[voice: ${url}]`), fact('m2', '[voice: asset://other]'), { type: 'recalled', at: 3, id: 'm1' }, transcript({ text: 'x' })]
    a.apply(entries)
    expect(contentOf(entries[0])).to.equal('[recalled]')
    expect(contentOf(entries[1])).to.equal('[voice: asset://other]')
    expect(withVoiceHeard('no voice here', url, { text: 'x' })).to.equal('no voice here')
    expect(voiceLine(url, { seconds: 90000, text: 'x' }), 'a day is no voice length').to.equal(`[voice: ${url}] "x"`)
  })

  it('a stored transcript entry is checked on load', () => {
    expect(entryProblem(transcript({ text: 'hi' }))).to.equal(undefined)
    expect(entryProblem(transcript({}))).to.equal('a transcript without text or why')
    expect(entryProblem({ type: 'transcript', at: 1, url })).to.equal('a transcript without url or message')
  })
})

describe('voice: configuration', () => {
  const base = (voice: unknown) => ({
    models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }, { id: 'ears', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'whisper-1' }],
    profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], voice }],
  })

  it('defaults to off (the Schema and DEFAULT_VOICE agree)', () => {
    expect(configSchema(base(undefined) as any).profiles[0].voice).to.deep.equal(DEFAULT_VOICE)
    expect(DEFAULT_VOICE).to.deep.equal({ stt: '', tts: '', ttsVoice: '', maxSeconds: 60, maxChars: 300 })
  })

  it('an unknown model turns that side off with its field path; vits is a tts; the profile starts', () => {
    const checked = checkConfig(configSchema(base({ stt: 'nope', tts: 'vits', maxSeconds: 0, maxChars: 1.5 }) as any))
    expect(checked.profiles[0].voice).to.deep.include({ stt: '', tts: 'vits', maxSeconds: 60, maxChars: 300 })
    expect(checked.problems.map(p => p.path)).to.deep.equal(['profiles[0].voice.stt', 'profiles[0].voice.maxSeconds', 'profiles[0].voice.maxChars'])
    expect(checked.problems[0].message).to.equal('names unknown model "nope"; using the default ""')
    const ok = checkConfig(configSchema(base({ stt: 'ears', tts: '' }) as any))
    expect(ok.problems).to.deep.equal([])
    expect((ok.profiles[0].voice as VoiceConfig).stt).to.equal('ears')
  })

  it('the capability line says voice is off in the config until stt or tts is set, and how each QQ platform takes voice', () => {
    const off = checkConfig(configSchema(base(undefined) as any)).profiles[0]
    const on = checkConfig(configSchema(base({ stt: 'ears' }) as any)).profiles[0]
    const voiceOf = (p: typeof off) => capabilitiesOf('onebot:1', p).features.find(f => f.name === 'voice')
    expect(voiceOf(off)).to.deep.equal({ name: 'voice', on: false, why: 'off in the config (voice.stt, voice.tts)' })
    expect(voiceOf(on)).to.deep.equal({ name: 'voice', on: true })
    expect([voiceFormatOf('qq'), voiceFormatOf('onebot'), voiceFormatOf('discord')]).to.deep.equal(['silk', 'silk-preferred', undefined])
  })
})
