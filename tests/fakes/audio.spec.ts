// Self-test of the speech fakes (FakeOpenAI.transcriptions() and .speech()) through the real
// @ai-sdk/openai provider, of what they refuse (raw requests), and of the audio fixtures.
import { expect } from 'chai'
import { APICallError, experimental_generateSpeech as generateSpeech, experimental_transcribe as transcribe } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { decode, getWavFileInfo } from 'silk-wasm'
import { FakeOpenAI, speechSeconds, transcriptionOf } from '../support/fake-openai'
import { parseMultipart } from '../support/fakes/wire/openai-audio'
import { amrHeader, mp3Header, oggHeader, readWav, silk, silkWithout02, tone, truncated, wav } from '../support/audio-fixtures'

/** What a promise rejects with (undefined when it resolves). */
function failure(promise: Promise<unknown>): Promise<any> {
  return promise.then((): unknown => undefined, (err: unknown) => err)
}

/** A Blob of a Buffer's bytes (a Buffer may sit on a shared ArrayBuffer, which Blob's types refuse). */
function blob(bytes: Buffer, type?: string): Blob {
  return new Blob([new Uint8Array(bytes)], { type })
}

describe('fake audio servers', () => {
  let fake: FakeOpenAI
  let openai: ReturnType<typeof createOpenAI>

  beforeEach(async () => {
    fake = await FakeOpenAI.start()
    openai = createOpenAI({ baseURL: fake.baseURL, apiKey: 'k' })
  })

  afterEach(async () => {
    await fake.close()
  })

  async function refusal(promise: Promise<unknown>): Promise<APICallError> {
    const e = await failure(promise)
    expect(APICallError.isInstance(e), `expected an APICallError, got ${e}`).to.equal(true)
    return e as APICallError
  }

  describe('transcriptions through @ai-sdk/openai', () => {
    it('receives the WAV as audio.wav (audio/wav) with the model, no response_format, and answers the scripted text', async () => {
      const audio = wav(tone(1.5))
      fake.transcriptions().script({ text: 'hello there' })
      const result = await transcribe({ model: openai.transcription('whisper-1'), audio, maxRetries: 0 })

      expect(result.text).to.equal('hello there')
      const [req] = fake.transcriptions().requests
      expect(req.path).to.equal('/v1/audio/transcriptions')
      expect(req.headers['content-type']).to.match(/^multipart\/form-data; boundary=/)
      const { fields, file } = transcriptionOf(req)
      // without provider options the SDK sends only these two fields: the server's json default
      expect(fields).to.deep.equal({ model: 'whisper-1' })
      expect(file).to.include({ filename: 'audio.wav', contentType: 'audio/wav' })
      expect(file!.data.equals(audio)).to.equal(true)
      // json carries no duration; whisper-1's usage does, in whole seconds
      expect(result.durationInSeconds).to.equal(2)
    })

    it('asks for verbose_json once provider options are given, and reads back segments, language and duration', async () => {
      fake.transcriptions().script({ textOf: (f) => `${f.data.length} bytes` })
      const audio = wav(tone(1.5, { rate: 16000 }), { rate: 16000 })
      const result = await transcribe({
        model: openai.transcription('whisper-1'), audio, maxRetries: 0, providerOptions: { openai: { language: 'en' } },
      })

      const { fields, values } = transcriptionOf(fake.transcriptions().requests[0])
      expect(fields).to.include({ model: 'whisper-1', language: 'en', response_format: 'verbose_json', temperature: '0' })
      expect(values['timestamp_granularities[]']).to.deep.equal(['segment'])
      expect(result.text).to.equal(`${audio.length} bytes`)
      // the SDK maps verbose_json's 'english' back to 'en'
      expect(result.language).to.equal('en')
      expect(result.durationInSeconds).to.be.closeTo(1.5, 1e-9)
      expect(result.segments).to.deep.equal([{ text: `${audio.length} bytes`, startSecond: 0, endSecond: 1.5 }])
    })

    it('sends bytes it cannot name as audio.wav, and the fake refuses SILK under that name before the script', async () => {
      fake.transcriptions().script({ text: 'never' })
      const e = await refusal(transcribe({ model: openai.transcription('whisper-1'), audio: await silk(tone(1)), maxRetries: 0 }))

      expect(e.statusCode).to.equal(400)
      expect(e.message).to.match(/could not be decoded/)
      expect(transcriptionOf(fake.transcriptions().requests[0]).file).to.include({ filename: 'audio.wav', contentType: 'audio/wav' })
      expect(fake.transcriptions().pending()).to.equal(1)
    })

    it('refuses verbose_json for gpt-4o-transcribe, which the SDK therefore asks json of', async () => {
      fake.transcriptions().script({ text: 'ok' })
      const result = await transcribe({ model: openai.transcription('gpt-4o-transcribe'), audio: wav(tone(1)), maxRetries: 0, providerOptions: { openai: {} } })
      expect(result.text).to.equal('ok')
      expect(transcriptionOf(fake.transcriptions().requests[0]).fields.response_format).to.equal('json')
    })

    it('sends a verbose_json segment with every field, as the SDK rejects a partial one', async () => {
      const segment = { id: 0, start: 0, end: 1, text: 'hi' }
      fake.transcriptions().script({ body: { text: 'hi', language: 'english', duration: 1, segments: [segment] } })
      const e = await failure(transcribe({ model: openai.transcription('whisper-1'), audio: wav(tone(1)), maxRetries: 0, providerOptions: { openai: {} } }))
      expect(String(e?.message)).to.match(/Invalid JSON response|Type validation failed/)
    })

    it('answers a scripted error status in OpenAI\'s shape', async () => {
      fake.transcriptions().script({ status: 429, error: 'slow down', errorType: 'rate_limit_exceeded' })
      const e = await refusal(transcribe({ model: openai.transcription('whisper-1'), audio: wav(tone(1)), maxRetries: 0 }))
      expect(e.statusCode).to.equal(429)
      expect(e.message).to.equal('slow down')
    })
  })

  describe('speech through @ai-sdk/openai', () => {
    it('sends model, input, voice and response_format wav; the WAV lasts as long as the input is', async () => {
      fake.speech().script({})
      const text = 'hello, this is kotodama'
      const result = await generateSpeech({ model: openai.speech('tts-1'), text, voice: 'nova', outputFormat: 'wav', maxRetries: 0 })

      const [req] = fake.speech().requests
      expect(req.path).to.equal('/v1/audio/speech')
      // speed and instructions are left out when not given
      expect(req.body).to.deep.equal({ model: 'tts-1', input: text, voice: 'nova', response_format: 'wav' })
      expect(result.audio.mediaType).to.equal('audio/wav')
      const info = readWav(Buffer.from(result.audio.uint8Array))
      expect(info).to.include({ formatCode: 1, channels: 1, rate: 24000, bitsPerSample: 16 })
      expect(info.seconds).to.be.closeTo(speechSeconds(text), 1e-3)
      expect(info.seconds).to.be.closeTo(0.06 * text.length, 1e-3)
    })

    it('asks for mp3 in alloy by default; the fake\'s ID3 and frame header are detected as audio/mpeg', async () => {
      fake.speech().script({})
      const result = await generateSpeech({ model: openai.speech('tts-1'), text: 'hi', maxRetries: 0 })
      expect(fake.speech().requests[0].body).to.deep.equal({ model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'mp3' })
      expect(result.audio.mediaType).to.equal('audio/mpeg')
      expect(Buffer.from(result.audio.uint8Array).equals(mp3Header())).to.equal(true)
    })

    it('answers raw pcm at 24 kHz, and scripted bytes byte for byte', async () => {
      const mine = Buffer.from('RIFF-not-really')
      fake.speech().script({}, { audio: mine, contentType: 'audio/x-mine' })
      const pcm = await generateSpeech({ model: openai.speech('tts-1'), text: 'a short one', voice: 'echo', outputFormat: 'pcm', maxRetries: 0 })
      expect(pcm.audio.uint8Array.length).to.equal(Math.round(speechSeconds('a short one') * 24000) * 2)
      const scripted = await generateSpeech({ model: openai.speech('tts-1'), text: 'x', maxRetries: 0 })
      expect(Buffer.from(scripted.audio.uint8Array).equals(mine)).to.equal(true)
    })

    it('sends top-level speed and instructions, and drops the same given as provider options', async () => {
      fake.speech().fallback({})
      const model = openai.speech('gpt-4o-mini-tts')
      await generateSpeech({ model, text: 'hi', speed: 1.5, instructions: 'calm', maxRetries: 0 })
      await generateSpeech({ model, text: 'hi', providerOptions: { openai: { speed: 2, instructions: 'calm' } }, maxRetries: 0 })
      const [top, options] = fake.speech().requests.map((r) => r.body)
      expect(top).to.include({ speed: 1.5, instructions: 'calm' })
      expect(options).to.not.have.any.keys('speed', 'instructions')
    })

    it('lets a server answer JSON with 200, which the SDK hands back as mp3 "audio"', async () => {
      fake.speech().script({ json: { error: 'quota' } })
      const result = await generateSpeech({ model: openai.speech('tts-1'), text: 'hi', maxRetries: 0 })
      expect(Buffer.from(result.audio.uint8Array).toString('utf8')).to.equal('{"error":"quota"}')
      expect(result.audio.mediaType).to.equal('audio/mp3')
    })
  })

  describe('refusals', () => {
    async function upload(parts: [string, string | Blob, string?][], url = `${fake.baseURL}/audio/transcriptions`) {
      const form = new FormData()
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') form.append(name, value)
        else form.append(name, value, filename)
      }
      const res = await fetch(url, { method: 'POST', body: form })
      const text = await res.text()
      return { status: res.status, type: res.headers.get('content-type'), text, json: res.status >= 400 ? JSON.parse(text) : undefined }
    }
    const wavBlob = () => blob(wav(tone(0.5)), 'audio/wav')

    it('refuses a transcription without file, model or filename, an empty or undecodable file, an unknown format', async () => {
      const endpoint = fake.transcriptions().script({ text: 'kept' })
      const cases: [RegExp, [string, string | Blob, string?][]][] = [
        [/model/, [['file', wavBlob(), 'a.wav']]],
        [/file field is required/, [['model', 'whisper-1']]],
        [/no filename/, [['model', 'whisper-1'], ['file', 'RIFF as a plain field']]],
        [/empty/, [['model', 'whisper-1'], ['file', new Blob([]), 'a.wav']]],
        [/response_format/, [['model', 'whisper-1'], ['file', wavBlob(), 'a.wav'], ['response_format', 'xml']]],
        [/Invalid file format/, [['model', 'whisper-1'], ['file', wavBlob(), 'a.silk']]],
        [/could not be decoded/, [['model', 'whisper-1'], ['file', blob(amrHeader()), 'a.wav']]],
        [/could not be decoded/, [['model', 'whisper-1'], ['file', blob(truncated(wav(tone(1)), 30)), 'a.wav']]],
        [/too short/, [['model', 'whisper-1'], ['file', blob(wav(tone(0.05))), 'a.wav']]],
      ]
      for (const [message, parts] of cases) {
        const { status, json } = await upload(parts)
        expect(status, String(message)).to.equal(400)
        expect(json.error.type).to.equal('invalid_request_error')
        expect(json.error.message).to.match(message)
      }
      // recorded, and the script untouched
      expect(endpoint.requests).to.have.length(cases.length)
      expect(endpoint.pending()).to.equal(1)
      const ok = await upload([['model', 'whisper-1'], ['file', wavBlob(), 'a.wav'], ['response_format', 'text']])
      expect(ok).to.include({ status: 200, type: 'text/plain; charset=utf-8', text: 'kept\n' })
    })

    it('answers text, srt and vtt as text/plain', async () => {
      fake.transcriptions().script({ text: 'one' }, { text: 'two', duration: 1.25 }, { text: 'three', duration: 61.5 })
      const asked = async (format: string) => (await upload([['model', 'whisper-1'], ['file', wavBlob(), 'a.wav'], ['response_format', format]])).text
      expect(await asked('text')).to.equal('one\n')
      expect(await asked('srt')).to.equal('1\n00:00:00,000 --> 00:00:01,250\ntwo\n\n')
      expect(await asked('vtt')).to.equal('WEBVTT\n\n00:00:00.000 --> 00:01:01.500\nthree\n\n')
    })

    it('refuses a body that is not multipart', async () => {
      fake.transcriptions().script({ text: 'x' })
      const res = await fetch(`${fake.baseURL}/audio/transcriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(res.status).to.equal(400)
      expect(((await res.json()) as any).error.message).to.match(/multipart\/form-data/)
    })

    it('refuses speech without model, input or voice, too long an input, an unknown format, a speed out of range', async () => {
      const endpoint = fake.speech().script({})
      const good = { model: 'tts-1', input: 'hi', voice: 'alloy' }
      const cases: [RegExp, unknown][] = [
        [/model/, { ...good, model: undefined }],
        [/input/, { ...good, input: undefined }],
        [/input/, { ...good, input: '' }],
        [/4096/, { ...good, input: 'x'.repeat(4097) }],
        [/voice/, { ...good, voice: undefined }],
        [/voice/, { ...good, voice: '' }],
        [/response_format/, { ...good, response_format: 'ogg' }],
        [/speed/, { ...good, speed: 5 }],
        [/speed/, { ...good, speed: 0.1 }],
      ]
      for (const [message, body] of cases) {
        const res = await fetch(`${fake.baseURL}/audio/speech`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        expect(res.status, String(message)).to.equal(400)
        expect(((await res.json()) as any).error.message).to.match(message)
      }
      expect(endpoint.pending()).to.equal(1)
      const res = await fetch(`${fake.baseURL}/audio/speech`, { method: 'POST', body: JSON.stringify({ ...good, input: 'x'.repeat(4096), speed: 4 }) })
      expect(res.status).to.equal(200)
      expect(res.headers.get('content-type')).to.equal('audio/mpeg')
    })
  })

  describe('the multipart parser', () => {
    it('reads what undici\'s FormData writes, binary data and quoted names included', async () => {
      // data holding a CRLF and dashes, as a boundary search must not stop there
      const data = Buffer.concat([Buffer.from('\r\n--\r\n--x'), wav(tone(0.01))])
      const form = new FormData()
      form.append('model', 'whisper-1')
      form.append('file', new Blob([data], { type: 'audio/wav' }), 'say "hi".wav')
      form.append('empty', '')
      const req = new Request('http://x/', { method: 'POST', body: form })
      const parts = parseMultipart(Buffer.from(await req.arrayBuffer()), req.headers.get('content-type')!)

      expect(parts.map((p) => [p.name, p.filename, p.contentType])).to.deep.equal([
        ['model', undefined, ''], ['file', 'say "hi".wav', 'audio/wav'], ['empty', undefined, ''],
      ])
      expect(parts[1].data.equals(data)).to.equal(true)
      expect(parts[2].data.length).to.equal(0)
      expect(() => parseMultipart(Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nnever closed'), 'multipart/form-data; boundary=b'))
        .to.throw(/never closed/)
    })
  })

  describe('audio fixtures', () => {
    it('writes a WAV header that silk-wasm\'s reader agrees with: rate, channels, data length', () => {
      const pcm = tone(0.5, { rate: 16000 })
      const file = wav(pcm, { rate: 16000 })
      expect(file.length).to.equal(44 + pcm.length)
      expect(file.toString('latin1', 0, 4)).to.equal('RIFF')
      expect(file.readUInt32LE(4)).to.equal(file.length - 8)
      const info = getWavFileInfo(file)
      expect(info.fmt).to.include({ formatCode: 1, numberOfChannels: 1, sampleRate: 16000, bytesPerSec: 32000, bytesPerFrame: 2, bitsPerSample: 16 })
      expect(info.chunkInfo.find((c) => c.chunkId === 'data')).to.include({ dataOffset: 44, dataLength: pcm.length })
      expect(file.subarray(44).equals(pcm)).to.equal(true)
    })

    it('interleaves stereo, writes 32-bit float as format 3, and places extra chunks before data', () => {
      const pcm = tone(0.1)
      const stereo = wav(pcm, { channels: 2, chunks: [{ id: 'LIST', data: Buffer.from('INFOx') }] })
      const s = readWav(stereo)
      expect(s).to.include({ channels: 2, rate: 24000, dataLength: pcm.length * 2 })
      expect(s.dataOffset).to.be.greaterThan(44)
      expect(s.seconds).to.be.closeTo(0.1, 1e-9)
      const third = pcm.readInt16LE(6)
      expect([stereo.readInt16LE(s.dataOffset + 12), stereo.readInt16LE(s.dataOffset + 14)]).to.deep.equal([third, third])

      const float = wav(pcm, { bitsPerSample: 32 })
      const f = readWav(float)
      expect(f).to.include({ formatCode: 3, bitsPerSample: 32, dataLength: pcm.length * 2 })
      expect(float.readFloatLE(f.dataOffset + 12)).to.be.closeTo(third / 32768, 1e-6)
      expect(getWavFileInfo(float).fmt.formatCode).to.equal(3)
    })

    it('makes a tone of the asked length whose loudness varies', () => {
      const pcm = tone(1, { rate: 8000, amplitude: 10000 })
      expect(pcm.length).to.equal(16000)
      const peak = (from: number) => Math.max(...Array.from({ length: 100 }, (_, i) => Math.abs(pcm.readInt16LE((from + i) * 2))))
      // 4 "syllables" a second: loudest near 1/16 s, quietest near 3/16 s
      expect(peak(450)).to.be.greaterThan(9000)
      expect(peak(1450)).to.be.lessThan(1500)
    })

    it('encodes SILK with QQ\'s 0x02 first, which silk-wasm decodes back to about the same length', async () => {
      const bytes = await silk(tone(1.2), 24000)
      expect(bytes[0]).to.equal(0x02)
      expect(bytes.toString('latin1', 1, 10)).to.equal('#!SILK_V3')
      const decoded = await decode(bytes, 24000)
      expect(decoded.data.length / 2 / 24000).to.be.closeTo(1.2, 0.05)
      expect(decoded.duration).to.be.closeTo(1200, 60)

      const bare = await silkWithout02(tone(1.2), 24000)
      expect(bare.toString('latin1', 0, 9)).to.equal('#!SILK_V3')
      expect(bare.length).to.equal(bytes.length - 1)
      // silk-wasm 3.7.1 decodes only the Tencent layout: a reader must put the 0x02 back
      const e = await failure(decode(bare, 24000))
      expect(String(e)).to.match(/silk decoding failure/)
    })

    it('starts the AMR, Ogg and MP3 headers with their magic, and truncates', () => {
      expect(amrHeader().toString('latin1', 0, 6)).to.equal('#!AMR\n')
      const ogg = oggHeader()
      expect(ogg.toString('latin1', 0, 4)).to.equal('OggS')
      expect(ogg.toString('latin1', 28, 36)).to.equal('OpusHead')
      const mp3 = mp3Header()
      expect(mp3.toString('latin1', 0, 3)).to.equal('ID3')
      expect([mp3[20], mp3[21] & 0xe0]).to.deep.equal([0xff, 0xe0])
      expect(truncated(Buffer.from('abcdef'), 2).toString()).to.equal('ab')
      expect(truncated(Buffer.from('abcdef'), -2).toString()).to.equal('abcd')
    })
  })
})
