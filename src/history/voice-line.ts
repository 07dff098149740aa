// How a voice message reads (SPEC §20): `[voice: asset://…]` when it arrives, then
// `[voice 4 s: asset://…] "the words"` or `[voice 4 s: asset://…; not transcribed: <why>]` once its
// transcript is in. The edge writes the first form; the history's amendments write the others.
import h from '@satorijs/element'
import { flattenLines } from '../util/transcript-text'

export interface VoiceHeard {
  seconds?: number
  text?: string
  why?: string
}

/** the longest transcript a fact shows (a minute of speech is some 300 characters) */
const MAX_TEXT = 2000

/** A day or more is not a voice message's length but a malformed attribute. */
export function voiceHead(seconds?: number): string {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds < 86400 ? `voice ${Math.max(1, Math.round(seconds))} s` : 'voice'
}

/** The line of a voice as plain text (before it is escaped into a fact's markup). */
export function voiceLine(url: string, heard: VoiceHeard = {}): string {
  const head = voiceHead(heard.seconds)
  if (heard.text !== undefined) {
    const words = flattenLines(heard.text).replace(/\s+/g, ' ').trim()
    return `[${head}: ${url}] "${words.length > MAX_TEXT ? `${words.slice(0, MAX_TEXT)}…` : words}"`
  }
  return heard.why ? `[${head}: ${url}; not transcribed: ${flattenLines(heard.why)}]` : `[${head}: ${url}]`
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `content` (element markup) with the voice `url`'s line as `heard` says; the same string when it has none. */
export function withVoiceHeard(content: string, url: string, heard: VoiceHeard): string {
  if (!content.includes(url)) return content
  const line = new RegExp(`\\[voice(?: \\d+ s)?: ${escapeRe(url)}\\]`, 'g')
  return content.replace(line, () => h.escape(voiceLine(url, heard)))
}

const VOICE_URL = /\[voice(?: \d+ s)?: (asset:\/\/[\w-]+)\]/g

/** The asset URLs of the voice lines still waiting for their transcripts in `content`. */
export function unheardVoices(content: string): string[] {
  if (!content.includes('[voice')) return []
  return [...content.matchAll(VOICE_URL)].map(m => m[1])
}

/** A voice line read back from a fact's text: `line` is its exact text there (the console page shows a player in its place). */
export interface VoiceInText extends VoiceHeard {
  url: string
  line: string
}

const LINE_HEAD = /\[voice(?: (\d+) s)?: (asset:\/\/[\w-]+)(\]|; not transcribed: )/g

/**
 * The voice lines of `text` (a fact's content as plain text, unescaped), as voiceLine writes them.
 * The words and the reason may hold quotes and brackets: each runs to the last `"` or `]` before
 * the line's end or the next voice line.
 */
export function voicesIn(text: string): VoiceInText[] {
  if (!text.includes('[voice')) return []
  const heads = [...text.matchAll(LINE_HEAD)]
  const out: VoiceInText[] = []
  heads.forEach((m, i) => {
    const start = m.index!
    const after = start + m[0].length
    const newline = text.indexOf('\n', after)
    const end = Math.min(heads[i + 1]?.index ?? text.length, newline < 0 ? text.length : newline)
    const rest = text.slice(after, end)
    const seconds = m[1] ? { seconds: Number(m[1]) } : {}
    if (m[3] !== ']') {
      const close = rest.lastIndexOf(']')
      if (close >= 0) out.push({ url: m[2], ...seconds, why: rest.slice(0, close), line: text.slice(start, after + close + 1) })
      return
    }
    const close = rest.startsWith(' "') ? rest.lastIndexOf('"') : -1
    if (close > 1) out.push({ url: m[2], ...seconds, text: rest.slice(2, close), line: text.slice(start, after + close + 1) })
    else out.push({ url: m[2], ...seconds, line: m[0] })
  })
  return out
}
