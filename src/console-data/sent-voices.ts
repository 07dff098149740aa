// The voices a send_message call delivered (SPEC §20), for the console page: the result lists their
// assets in order (`voices`), the call's input holds their words (`<voice>words</voice>`). A voice
// sent as text instead is in `dropped` (as tools/send-outbound.ts shows it) and has no asset: it is skipped.
import h from '@satorijs/element'
import { visibleText } from '../util/elements'
import type { SentVoice } from './types'

/** as tools/send-outbound.ts writes a dropped voice's `src` */
const shown = (words: string) => `<voice>${words.length > 80 ? `${words.slice(0, 80)}…` : words}</voice>`

function voiceWords(els: h[], message: number, out: { words: string; message: number }[]): void {
  for (const el of els) {
    if (el.type === 'voice') out.push({ words: visibleText(el.children ?? []).replace(/\s+/g, ' ').trim(), message })
    else if (el.children?.length) voiceWords(el.children, message, out)
  }
}

/** `input`: the call's input; `value`: its JSON result. Empty when it delivered no voice. */
export function sentVoices(input: any, value: any): SentVoice[] {
  const urls: string[] = Array.isArray(value?.voices) ? value.voices.filter((u: unknown) => typeof u === 'string') : []
  if (!urls.length) return []
  const spoken: { words: string; message: number }[] = []
  if (input?.mode !== 'text' && Array.isArray(input?.messages)) {
    input.messages.forEach((m: unknown, i: number) => {
      try {
        voiceWords(h.parse(String(m)), i, spoken)
      } catch {
        // markup the parser refuses was refused by send_message too
      }
    })
  }
  const dropped: string[] = Array.isArray(value?.dropped) ? value.dropped.map((d: any) => String(d?.src)) : []
  const kept = spoken.filter(v => {
    const at = v.words ? dropped.indexOf(shown(v.words)) : -1
    if (at >= 0) dropped.splice(at, 1)
    return v.words && at < 0
  })
  return urls.map((url, i) => ({ url, message: kept[i]?.message ?? -1, ...(kept[i] ? { text: kept[i].words } : {}) }))
}
