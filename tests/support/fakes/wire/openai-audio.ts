// The OpenAI audio wires for the scripted server. Follows the OpenAI API reference: "Audio: Create
// transcription" (POST /v1/audio/transcriptions, multipart/form-data: `file` with a filename,
// `model`, optional `language`, `prompt`, `response_format` json | text | srt | verbose_json | vtt,
// `temperature`, `timestamp_granularities[]`; `{ text }`, or verbose_json's `language`, `duration`,
// `segments`, `words`), "Audio: Create speech" (POST /v1/audio/speech, JSON: `model`, `input` of at
// most 4096 characters, `voice`, optional `response_format` mp3 | opus | aac | flac | wav | pcm,
// `speed` 0.25 to 4.0, `instructions`; the answer is the audio bytes; pcm is s16le at 24 kHz), and
// "Error codes" for errors. The multipart framing follows RFC 7578 and RFC 2046 section 5.1.1.
import { IncomingMessage } from 'node:http'
import { mp3Header, oggHeader, readWav, tone, wav } from '../../audio-fixtures'
import { Delivery, Payload, RecordedRequest, Wire } from '../scripted-server'
import { openAIError } from './openai-chat'

// ---- multipart/form-data ----

export interface MultipartPart {
  name: string
  /** undefined when the part's Content-Disposition has no filename parameter (a plain field) */
  filename?: string
  /** the part's Content-Type; '' when it sent none */
  contentType: string
  data: Buffer
}

const CRLF = Buffer.from('\r\n')

/** Splits a multipart/form-data body into its parts (synchronously: the core's parse is synchronous). */
export function parseMultipart(raw: Buffer, contentType: string | undefined): MultipartPart[] {
  const boundary = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '')
  if (!boundary) throw new Error(`expected multipart/form-data with a boundary, got ${contentType || 'no content-type'}`)
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  const between = Buffer.concat([CRLF, delimiter])
  let at = raw.indexOf(delimiter)
  if (at < 0) throw new Error('the body has no boundary line')
  const parts: MultipartPart[] = []
  for (;;) {
    at += delimiter.length
    if (raw.toString('latin1', at, at + 2) === '--') return parts // the close delimiter
    const lineEnd = raw.indexOf(CRLF, at) // past transport padding
    if (lineEnd < 0) throw new Error('a boundary line without CRLF')
    const headStart = lineEnd + 2
    const bare = raw.toString('latin1', headStart, headStart + 2) === '\r\n' // a part without headers
    const headEnd = bare ? headStart : raw.indexOf('\r\n\r\n', headStart, 'latin1')
    if (headEnd < 0) throw new Error('a part whose headers never end')
    const dataStart = headEnd + (bare ? 2 : 4)
    const next = raw.indexOf(between, dataStart)
    if (next < 0) throw new Error('a part that is never closed by the boundary')
    parts.push({ ...partHeaders(raw.toString('utf8', headStart, headEnd)), data: raw.subarray(dataStart, next) })
    at = next + 2
  }
}

function partHeaders(text: string): Omit<MultipartPart, 'data'> {
  let disposition = ''
  let contentType = ''
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':')
    const key = line.slice(0, colon).trim().toLowerCase()
    if (key === 'content-disposition') disposition = line.slice(colon + 1)
    if (key === 'content-type') contentType = line.slice(colon + 1).trim()
  }
  if (!/^\s*form-data\b/i.test(disposition)) throw new Error(`a part without Content-Disposition: form-data (${text || 'no headers'})`)
  const params: Record<string, string> = {}
  for (const m of disposition.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    // browsers and undici percent-encode `"`, CR and LF inside quoted names (WHATWG "multipart/form-data encoding")
    params[m[1].toLowerCase()] = (m[2] ?? m[3].trim()).replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n')
  }
  if (params.name === undefined) throw new Error('a part without a name')
  return { name: params.name, filename: params.filename, contentType }
}

// ---- transcriptions ----

export interface TranscriptionFile {
  filename: string
  contentType: string
  data: Buffer
}

/** A transcription request's body as this wire parses it. */
export interface TranscriptionBody {
  /** every field but the file, by name (a repeated one keeps its last value) */
  fields: Record<string, string>
  /** every value of every field, in order (`timestamp_granularities[]` repeats) */
  values: Record<string, string[]>
  file?: TranscriptionFile
}

export interface TranscriptionReply extends Delivery {
  text?: string
  /** the text of the uploaded file (used when `text` is not given) */
  textOf?: (file: TranscriptionFile) => string
  /** verbose_json's language: a code maps to the name the real server answers ('en' → 'english') */
  language?: string
  /** seconds; default the WAV's length, else 1 */
  duration?: number
  error?: string
  errorType?: string
}

export const TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const
/** The extensions the API accepts and the first bytes each must start with. */
const AUDIO_MAGIC: Record<string, (b: Buffer) => boolean> = {
  wav: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE',
  mp3: isMp3, mpeg: isMp3, mpga: isMp3,
  ogg: (b) => b.toString('latin1', 0, 4) === 'OggS', oga: (b) => b.toString('latin1', 0, 4) === 'OggS',
  flac: (b) => b.toString('latin1', 0, 4) === 'fLaC',
  webm: (b) => b.readUInt32BE(0) === 0x1a45dfa3,
  m4a: (b) => b.toString('latin1', 4, 8) === 'ftyp', mp4: (b) => b.toString('latin1', 4, 8) === 'ftyp',
}
function isMp3(b: Buffer): boolean {
  return b.toString('latin1', 0, 3) === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)
}
// gpt-4o(-mini)-transcribe and gpt-transcribe answer only json or text
const JSON_ONLY = /^(gpt-4o(-mini)?-transcribe|gpt-transcribe)(-|$)/
const LANGUAGES: Record<string, string> = {
  en: 'english', zh: 'chinese', ja: 'japanese', ko: 'korean', fr: 'french', de: 'german', es: 'spanish', ru: 'russian',
}

/** The parsed body of a transcription request. */
export function transcriptionOf(req: RecordedRequest): TranscriptionBody {
  return req.body as TranscriptionBody
}

function wavSeconds(file: TranscriptionFile): number | undefined {
  try {
    return readWav(file.data).seconds
  } catch {
    return undefined
  }
}

export interface TranscriptionWireOptions {
  /** names the server in its messages; default 'fake-openai' */
  name?: string
  /** refuse a file whose bytes do not match its extension, as the real server fails to decode it; default true */
  checkAudio?: boolean
}

export function openAITranscriptions(o: TranscriptionWireOptions = {}): Wire<TranscriptionReply> {
  const { name = 'fake-openai', checkAudio = true } = o
  return {
    error: (status, message, reply) => openAIError(status, message, reply?.errorType),
    parse(raw: Buffer, headers: IncomingMessage['headers']): TranscriptionBody {
      const body: TranscriptionBody = { fields: {}, values: {} }
      for (const part of parseMultipart(raw, headers['content-type'])) {
        if (part.name === 'file') {
          body.file = { filename: part.filename ?? '', contentType: part.contentType, data: Buffer.from(part.data) }
          continue
        }
        const value = part.data.toString('utf8')
        body.fields[part.name] = value
        ;(body.values[part.name] ??= []).push(value)
      }
      return body
    },
    check(req) {
      const { fields, file } = transcriptionOf(req)
      if (!fields.model) return `${name}: you must provide a model parameter`
      if (!file) return `${name}: the file field is required (a multipart part named "file")`
      if (!file.filename) return `${name}: the file has no filename; the server reads the format from its extension`
      if (!file.data.length) return `${name}: the audio file is empty`
      const format = fields.response_format ?? 'json'
      if (!(TRANSCRIPTION_FORMATS as readonly string[]).includes(format)) {
        return `${name}: response_format must be one of ${TRANSCRIPTION_FORMATS.join(', ')}; got ${format}`
      }
      if (JSON_ONLY.test(fields.model) && format !== 'json' && format !== 'text') {
        return `${name}: response_format '${format}' is not compatible with model '${fields.model}'`
      }
      if (!checkAudio) return undefined
      const ext = /\.([^.]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? ''
      const magic = AUDIO_MAGIC[ext]
      if (!magic) return `${name}: Invalid file format. Supported formats: ${Object.keys(AUDIO_MAGIC).join(', ')}`
      if (file.data.length < 12 || !magic(file.data)) return `${name}: The audio file could not be decoded or its format is not supported.`
      const seconds = ext === 'wav' ? wavSeconds(file) : undefined
      if (ext === 'wav' && seconds === undefined) return `${name}: The audio file could not be decoded or its format is not supported.`
      if (seconds !== undefined && seconds < 0.1) return `${name}: Audio file is too short. Minimum audio length is 0.1 seconds.`
      return undefined
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return openAIError(reply.status, reply.error ?? `${name}: scripted status ${reply.status}`, reply.errorType)
      const { fields, values, file } = transcriptionOf(req)
      const text = reply.text ?? (file && reply.textOf?.(file)) ?? ''
      const duration = reply.duration ?? (file && wavSeconds(file)) ?? 1
      const format = fields.response_format ?? 'json'
      // whisper-1 bills by the second and says so in `usage`
      const usage = { type: 'duration', seconds: Math.ceil(duration) }
      const plain = (body: string): Payload => ({ status: 200, bytes: Buffer.from(body), contentType: 'text/plain; charset=utf-8' })
      if (format === 'text') return plain(`${text}\n`)
      if (format === 'srt') return plain(`1\n${stamp(0, ',')} --> ${stamp(duration, ',')}\n${text}\n\n`)
      if (format === 'vtt') return plain(`WEBVTT\n\n${stamp(0, '.')} --> ${stamp(duration, '.')}\n${text}\n\n`)
      if (format === 'json') return { status: 200, json: { text, usage } }
      const language = reply.language ?? fields.language ?? 'en'
      const json: any = {
        task: 'transcribe',
        language: LANGUAGES[language] ?? language,
        duration,
        text,
        // every field the real segment has: the AI SDK's schema requires them all
        segments: [{
          id: 0, seek: 0, start: 0, end: duration, text, tokens: text.split(/\s+/).filter(Boolean).map((_, i) => 50364 + i),
          temperature: 0, avg_logprob: -0.25, compression_ratio: 1.2, no_speech_prob: 0.01,
        }],
        usage,
      }
      if (values['timestamp_granularities[]']?.includes('word')) json.words = spread(text, duration)
      return { status: 200, json }
    },
  }
}

function stamp(seconds: number, sep: string): string {
  const ms = Math.round(seconds * 1000)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`
}

/** The words of `text`, evenly over `duration`. */
function spread(text: string, duration: number): { word: string; start: number; end: number }[] {
  const words = text.split(/\s+/).filter(Boolean)
  const step = duration / Math.max(1, words.length)
  return words.map((word, i) => ({ word, start: i * step, end: (i + 1) * step }))
}

// ---- speech ----

export interface SpeechReply extends Delivery {
  /** the bytes to answer (with `contentType`, default the requested format's) */
  audio?: Buffer
  /** overrides the content-type of `audio` or of the default audio */
  contentType?: string
  /** the answer from the request body (used when `audio` is not given) */
  audioOf?: (body: any) => { data: Buffer; contentType: string }
  /** a JSON body with status 200: a TTS server that answers JSON instead of audio */
  json?: unknown
  error?: string
  errorType?: string
}

export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const
export type SpeechFormat = (typeof SPEECH_FORMATS)[number]
/** The rate of the fake's wav and pcm answers (OpenAI's pcm is 24 kHz). */
export const SPEECH_RATE = 24000
export const SPEECH_CONTENT_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm',
}

/** How long the default wav/pcm answer for `input` is: 60 ms a character, at least 300 ms. */
export function speechSeconds(input: string): number {
  return Math.max(0.3, 0.06 * [...input].length)
}

/** The default answer for a format: real audio for wav and pcm, only recognisable first bytes for the others. */
export function speechAudio(format: SpeechFormat, input: string): Buffer {
  const pcm = () => tone(speechSeconds(input), { rate: SPEECH_RATE, hz: 220 })
  switch (format) {
    case 'wav': return wav(pcm(), { rate: SPEECH_RATE })
    case 'pcm': return pcm()
    // not a real MP3: an ID3 tag and one frame header of zeros, enough for format detection
    case 'mp3': return mp3Header()
    case 'opus': return oggHeader()
    // an ADTS header (AAC-LC, 24 kHz, mono) and zeros
    case 'aac': return Buffer.concat([Buffer.from([0xff, 0xf1, 0x58, 0x40, 0x04, 0x1f, 0xfc]), Buffer.alloc(25)])
    // `fLaC` and an empty last STREAMINFO block
    case 'flac': return Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.from([0x80, 0x00, 0x00, 0x22]), Buffer.alloc(34)])
  }
}

export function openAISpeech(name = 'fake-openai'): Wire<SpeechReply> {
  return {
    error: (status, message, reply) => openAIError(status, message, reply?.errorType),
    check(req) {
      const b = req.body
      if (!b || typeof b !== 'object' || Array.isArray(b)) return `${name}: the body must be a JSON object`
      if (typeof b.model !== 'string' || !b.model) return `${name}: you must provide a model parameter`
      if (typeof b.input !== 'string' || !b.input) return `${name}: input is required and must be a non-empty string`
      if ([...b.input].length > 4096) return `${name}: input is ${[...b.input].length} characters; the maximum is 4096`
      // a custom voice is an object with an id
      const voiceOk = (typeof b.voice === 'string' && b.voice) || (typeof b.voice?.id === 'string' && b.voice.id)
      if (!voiceOk) return `${name}: voice is required`
      if (b.response_format !== undefined && !(SPEECH_FORMATS as readonly string[]).includes(b.response_format)) {
        return `${name}: response_format must be one of ${SPEECH_FORMATS.join(', ')}; got ${JSON.stringify(b.response_format)}`
      }
      if (b.speed !== undefined && (typeof b.speed !== 'number' || !(b.speed >= 0.25 && b.speed <= 4))) {
        return `${name}: speed must be a number from 0.25 to 4.0; got ${JSON.stringify(b.speed)}`
      }
      if (b.instructions !== undefined && typeof b.instructions !== 'string') return `${name}: instructions must be a string`
      return undefined
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return openAIError(reply.status, reply.error ?? `${name}: scripted status ${reply.status}`, reply.errorType)
      if (reply.json !== undefined) return { status: 200, json: reply.json }
      const format: SpeechFormat = req.body.response_format ?? 'mp3'
      if (reply.audio) return { status: 200, bytes: reply.audio, contentType: reply.contentType ?? SPEECH_CONTENT_TYPES[format] }
      if (reply.audioOf) {
        const { data, contentType } = reply.audioOf(req.body)
        return { status: 200, bytes: data, contentType: reply.contentType ?? contentType }
      }
      return { status: 200, bytes: speechAudio(format, req.body.input), contentType: reply.contentType ?? SPEECH_CONTENT_TYPES[format] }
    },
  }
}
