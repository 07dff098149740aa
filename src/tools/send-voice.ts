// `<voice>text</voice>` in what the mind sends (SPEC §20): the words spoken by the voice part and sent
// as an audio element, the message's typing pause the speech's length. Without a voice, past
// `maxChars`, or when speaking fails, the words go as text and `dropped` says why: the mind's
// message always reaches the chat. Markup inside is not spoken: only its words are.
import h from '@satorijs/element'
import { visibleText } from '../util/elements'
import type { VoicePort } from './types'

export interface VoiceDropped { src: string; code: string; message: string }

export interface VoiceResolution {
  elements: h[]
  /** seconds of speech in the message (its typing pause); 0: none */
  seconds: number
  /** the spoken audio kept as assets, in order */
  urls: string[]
}

const shown = (words: string) => `<voice>${words.length > 80 ? `${words.slice(0, 80)}…` : words}</voice>`

/** The elements with each `<voice>` spoken, or its words as text (reported in `dropped`). */
export async function resolveVoices(
  elements: h[], port: VoicePort | undefined, bot: string, dropped: VoiceDropped[], signal?: AbortSignal,
): Promise<VoiceResolution> {
  const result: VoiceResolution = { elements: [], seconds: 0, urls: [] }
  if (!elements.some(function has(el: h): boolean { return el.type === 'voice' || !!el.children?.some(has) })) return { ...result, elements }
  result.elements = await walk(elements, port, bot, dropped, result, signal)
  return result
}

async function walk(elements: h[], port: VoicePort | undefined, bot: string, dropped: VoiceDropped[], r: VoiceResolution, signal?: AbortSignal): Promise<h[]> {
  const out: h[] = []
  for (const el of elements) {
    if (el.type !== 'voice') {
      out.push(el.children?.length ? h(el.type, el.attrs, await walk(el.children, port, bot, dropped, r, signal)) : el)
      continue
    }
    const words = visibleText(el.children ?? []).replace(/\s+/g, ' ').trim()
    const drop = (code: string, message: string) => {
      dropped.push({ src: shown(words), code, message })
      if (words) out.push(h.text(words))
    }
    if (!words) {
      dropped.push({ src: '<voice/>', code: 'empty_voice', message: '<voice> holds no words to speak; write them inside: <voice>…</voice>' })
      continue
    }
    if (!port) { drop('voice_off', 'this bot has no voice (voice.tts is not set); the words were sent as text'); continue }
    if ([...words].length > port.maxChars) { drop('voice_too_long', `longer than ${port.maxChars} characters, so it was sent as text`); continue }
    const spoken = await port.speak(words, bot, signal)
    if ('dropped' in spoken) { drop(spoken.dropped.code, `${spoken.dropped.message}; the words were sent as text`); continue }
    r.seconds += spoken.seconds
    if (spoken.url) r.urls.push(spoken.url)
    out.push(h('audio', { src: `data:${spoken.mediaType};base64,${spoken.data.toString('base64')}`, duration: Math.round(spoken.seconds * 10) / 10 }))
  }
  return out
}
