// The acts a send_message call made (SPEC §23), for the console page: each message's words without
// its act elements, the acts read from the call's input (what the mind wrote), each paired with its
// report in `dropped` (as tools/send-outbound.ts shows it) when it was not made, and which messages
// the bot took back since (`unsent` entries, or the mark history/unsent.ts puts on the call).
import h from '@satorijs/element'
import { UNSENT_TEXT } from '../history/unsent'
import type { SentAct } from './types'

/** the acts' tags and the attributes each keeps (acts/tags.ts) */
const ACTS: Record<string, readonly string[]> = { react: ['emoji', 'to'], poke: ['id'], unsend: ['id'] }
/** one act element as written: self-closing, or with a body (whose words an act ignores) */
const ACT = /<(react|poke|unsend)\b(?:[^>"']|"[^"]*"|'[^']*')*?(?:\/>|>[\s\S]*?<\/\1\s*>)/gi
/** an emoji of 500 characters is shown by its start: the drop says what was wrong with it */
const SHOWN = 24

export interface SentActs {
  /** each message's words, without its acts and the unsent mark ('' : a message of acts only) */
  texts: string[]
  acts: SentAct[]
  /** indexes of the messages the bot took back */
  unsent: number[]
}

/**
 * `input`: the call's input; `value`: its JSON result; `unsent`: ids of messages taken back;
 * `nameOf`: a member's name by id, as the conversation's facts give it.
 */
export function sentActs(input: any, value: any, unsent: ReadonlySet<string>, nameOf: (id: string) => string | undefined): SentActs {
  const raw: string[] = Array.isArray(input?.messages) ? input.messages.map(String) : []
  const ids: unknown[] = Array.isArray(value?.ids) ? value.ids : Array.isArray(value?.sent) ? value.sent : []
  const out: SentActs = { texts: [], acts: [], unsent: [] }
  const dropped: { src: string; code: string; message: string }[] = Array.isArray(value?.dropped)
    ? value.dropped.map((d: any) => ({ src: String(d?.src ?? ''), code: String(d?.code ?? ''), message: String(d?.message ?? '') }))
    : []
  raw.forEach((text, message) => {
    const marked = text.startsWith(UNSENT_TEXT)
    if (marked) text = text.slice(UNSENT_TEXT.length).trimStart()
    const id = ids[message]
    if (marked || (typeof id === 'string' && unsent.has(id))) out.unsent.push(message)
    if (input?.mode === 'text') {
      out.texts.push(text)
      return
    }
    out.texts.push(text.replace(ACT, match => {
      const act = actOf(match, message, nameOf)
      if (act) out.acts.push(withDrop(act, match, dropped))
      return ''
    }).trim())
  })
  return out
}

function actOf(written: string, message: number, nameOf: (id: string) => string | undefined): SentAct | undefined {
  let el: h | undefined
  try {
    el = h.parse(written).find(e => e.type in ACTS)
  } catch {
    // markup the parser refuses was refused by send_message too
  }
  if (!el) return undefined
  const attr = (name: string) => String(el!.attrs?.[name] ?? '').trim()
  if (el.type === 'react') {
    const emoji = Array.from(attr('emoji'))
    return { message, act: 'react', emoji: emoji.length > SHOWN ? emoji.slice(0, SHOWN - 1).join('') + '…' : emoji.join(''), to: attr('to') }
  }
  const id = attr('id')
  const name = el.type === 'poke' ? nameOf(id) : undefined
  return { message, act: el.type as 'poke' | 'unsend', id, ...(name && name !== id ? { name } : {}) }
}

/** the act with its report, when `dropped` holds one for it (each report pairs with one act) */
function withDrop(act: SentAct, written: string, dropped: { src: string; code: string; message: string }[]): SentAct {
  const el = h.parse(written).find(e => e.type in ACTS)!
  const kept = Object.fromEntries(ACTS[el.type].flatMap(k => el.attrs?.[k] !== undefined ? [[k, el.attrs[k]]] : []))
  const src = h(el.type, kept).toString().slice(0, 120)
  const at = dropped.findIndex(d => d.src === src)
  if (at < 0) return act
  const [d] = dropped.splice(at, 1)
  return { ...act, dropped: { code: d.code, message: d.message } }
}
