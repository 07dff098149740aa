// The speech models through the runtime's counted calls (SPEC §20): every request in the usage book,
// a model's `fallback` tried when it is unavailable, its `timeoutMs` as the limit, and a failure in the
// server's own words.
import type { CallPort } from '../model/calls'
import { FailedStep } from '../model/failover'
import { describeFailure } from '../model/failure'
import type { ModelHandle, SpeechModels } from '../model/provider'
import { VoiceError } from './voice-error'

/** what a failed call says, at most */
const WHY = 160

function speechOf(h: ModelHandle): SpeechModels {
  if (!h.speech) throw new VoiceError('no_speech_model', `model "${h.config.id}" has no speech endpoints`)
  return h.speech
}

/** The caller's stop and the model's own time limit. */
const limited = (h: ModelHandle, signal?: AbortSignal) => {
  const timeout = AbortSignal.timeout(h.config.timeoutMs)
  return signal ? AbortSignal.any([signal, timeout]) : timeout
}

/** A failed call in words: "the speech server answered HTTP 500: …", "… did not answer within 30000 ms". */
export function speechFailure(e: unknown): VoiceError {
  if (e instanceof VoiceError) return e
  const inner = e instanceof FailedStep ? e.error : e
  const timeoutMs = e instanceof FailedStep ? e.handle?.config.timeoutMs : undefined
  const said = describeFailure(inner, timeoutMs)
  return new VoiceError('speech_failed', `the speech server failed: ${said.length > WHY ? `${said.slice(0, WHY)}…` : said}`)
}

export async function transcribe(calls: CallPort, model: string, audio: Uint8Array, mediaType: string, signal?: AbortSignal) {
  try {
    const a = await calls.run({
      kind: 'transcription', model, signal, key: 'voice',
      call: h => speechOf(h).transcribe(audio, mediaType, limited(h, signal)),
      tokens: () => ({}),
    })
    return a.result!
  } catch (e) {
    throw speechFailure(e)
  }
}

export async function speak(calls: CallPort, model: string, text: string, o: { voice: string; format: string; signal?: AbortSignal }) {
  try {
    const a = await calls.run({
      kind: 'speech', model, signal: o.signal, key: 'voice',
      call: h => speechOf(h).speak(text, { voice: o.voice, format: o.format, signal: limited(h, o.signal) }),
      tokens: () => ({}),
    })
    return Buffer.from(a.result!)
  } catch (e) {
    throw speechFailure(e)
  }
}
