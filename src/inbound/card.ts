// A share card (a `json` element: QQ's ark messages, OneBot's `json` segment) as the model reads it
// (SPEC §19 "cards: title, description and link"): `[card: title — description (link)]`. The card's
// other fields (preview pictures on the platform's servers, app ids, tokens) never reach the model.
import h from '@satorijs/element'
import { safeCut } from '../util/surrogate'

const MAX_FIELD = 200

/** The card's text, or undefined when `el` is not a card this reads. */
export function renderCard(el: h): h | undefined {
  if (el.type === 'xml') return xmlCard(String(el.attrs?.data ?? ''))
  if (el.type !== 'json') return undefined
  const card = parsed(el.attrs?.data)
  const meta = card?.meta
  // an ark keeps its fields under one key named after its view (news, detail_1, music, contact …)
  const view = meta && typeof meta === 'object' ? Object.values(meta).find(v => v && typeof v === 'object') as Record<string, unknown> : undefined
  const title = text(view?.title) ?? text(card?.prompt)
  const desc = text(view?.desc)
  const link = [view?.jumpUrl, view?.qqdocurl, view?.url].map(text).find(u => u && /^https?:\/\//i.test(u))
  return cardText(title, desc, link)
}

/** QQ's older XML cards: `<msg brief=… url=…><item><title>…</title><summary>…</summary></item></msg>`. */
function xmlCard(xml: string): h {
  const tag = (name: string) => decode(new RegExp(`<${name}[^>]*>([^<]*)</${name}>`, 'i').exec(xml)?.[1])
  const attr = (name: string) => decode(new RegExp(`<msg\\b[^>]*\\s${name}="([^"]*)"`, 'i').exec(xml)?.[1])
  const link = attr('url')
  return cardText(tag('title') ?? attr('brief'), tag('summary'), link && /^https?:\/\//i.test(link) ? link : undefined)
}

function cardText(title?: string, desc?: string, link?: string): h {
  if (!title && !desc && !link) return h.text('[card]')
  const words = [title, desc].filter(Boolean).join(' — ')
  return h.text(`[card: ${words}${link ? `${words ? ' ' : ''}(${link})` : ''}]`)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (s: string | undefined) => text(s?.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]))

function parsed(data: unknown): Record<string, any> | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const v = JSON.parse(data)
    return v && typeof v === 'object' ? v : undefined
  } catch {
    return undefined
  }
}

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  // one line: a card's title is anyone's to write (SPEC §22)
  const s = v.slice(0, MAX_FIELD * 4).replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
  if (!s) return undefined
  return s.length > MAX_FIELD ? `${s.slice(0, safeCut(s, MAX_FIELD))}…` : s
}
