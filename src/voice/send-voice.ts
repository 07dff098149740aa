// `<voice>text</voice>` in what the mind sends (SPEC §20): the words spoken and sent as an audio
// element, the message's typing pause the speech's length. Past `maxChars`, or when speaking fails,
// the words go as text and `dropped` says why: the mind's message always reaches the chat. Markup
// inside is not spoken: only its words are.
import h from '@satorijs/element'
import type { OutboundServer, OutboundTag } from '../tools/outbound'
import { words } from '../tools/send-outbound'
import type { VoicePort } from './types'

/** `<voice>` whether or not this runtime speaks: its words kept when it does not. */
export const VOICE_TAG: OutboundTag = {
  tag: 'voice',
  attrs: [],
  off: { code: 'voice_off', message: 'this bot has no voice (voice.tts is not set); the words were sent as text' },
}

const LINE = '- <voice>words</voice> says the words aloud as a voice message (plain words only, short); '
  + 'if it cannot be spoken they are sent as text and listed in `dropped`.'

export function voiceServer(port: VoicePort): OutboundServer {
  return {
    tag: VOICE_TAG.tag,
    lines: LINE,
    async resolve(el, send) {
      const kept = words(el)
      const said = kept.length ? String(kept[0].attrs.content) : ''
      if (!said) return { dropped: { code: 'empty_voice', message: '<voice> holds no words to speak; write them inside: <voice>…</voice>' } }
      if ([...said].length > port.maxChars) {
        return { dropped: { code: 'voice_too_long', message: `longer than ${port.maxChars} characters, so it was sent as text` }, kept }
      }
      try {
        send.paid?.('speech')
      } catch (e: any) {
        return { dropped: { code: 'paid_call_limit', message: `${e?.message ?? e}; the words were sent as text` }, kept }
      }
      const spoken = await port.speak(said, send.bot, send.signal)
      if ('dropped' in spoken) return { dropped: { code: spoken.dropped.code, message: `${spoken.dropped.message}; the words were sent as text` }, kept }
      const audio = h('audio', { src: `data:${spoken.mediaType};base64,${spoken.data.toString('base64')}`, duration: Math.round(spoken.seconds * 10) / 10 })
      return { elements: [audio], seconds: spoken.seconds, ...spoken.url ? { url: spoken.url } : {} }
    },
  }
}
