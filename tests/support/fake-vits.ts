// Koishi's `vits` service, faked as the plugin that would provide it. The interface is the one of
// @initencounter/vits (initialencounter/mykoishi, vits/src/index.ts): an abstract `Service`
// registered as `vits` (`super(ctx, 'vits', true)`) with `say({ input, speaker_id?, output? })`
// answering an element; luna-vits (ChatLunaLab/luna-vits, its `LunaVitsService extends Vits`),
// open-vits and the other vits plugins implement it, and answer `h.audio(...)` with the speech
// (or, like luna-vits past its length limit, a text element). Here `say` records each call and
// answers a WAV tone as a data: URL, as long as the fake speech server's (`speechSeconds(input)`),
// or what `answer` returns, or throws `fail`.
import { Context, h, Service } from 'koishi'
import { tone, wav } from './audio-fixtures'
import { speechSeconds } from './fakes/wire/openai-audio'

export interface VitsCall {
  input: string
  speaker_id?: number
}

export interface FakeVitsConfig {
  /** where the calls are recorded (the test keeps the array); default a new one (`app.vits.calls`) */
  calls?: VitsCall[]
  /** what `say` answers instead of the WAV tone: an element, elements or a string of them */
  answer?: (call: VitsCall) => h | h[] | string | Promise<h | h[] | string>
  /** `say` throws an Error with this message */
  fail?: string
}

/** 24 kHz mono WAV (what VITS models commonly answer), as an audio element with a data: URL. */
export function wavElement(input: string): h {
  return h.audio(`data:audio/wav;base64,${wav(tone(speechSeconds(input)), { rate: 24000 }).toString('base64')}`)
}

export class FakeVits extends Service {
  readonly calls: VitsCall[]

  constructor(ctx: Context, private o: FakeVitsConfig = {}) {
    super(ctx, 'vits', true)
    this.calls = o.calls ?? []
  }

  async say(options: VitsCall): Promise<h | h[] | string> {
    // a copy: what the caller passed, not an object it may change later
    this.calls.push({ ...options })
    if (this.o.fail) throw new Error(this.o.fail)
    return this.o.answer ? this.o.answer(options) : wavElement(options.input)
  }
}
