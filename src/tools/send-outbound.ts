// The elements parts serve (outbound.ts), made ready in one message before it is sent: each replaced
// by what its part makes of it, or left out and reported in `dropped` (its words kept where the part
// says so). A tag whose part is off is reported with the part's own code; a turn's cap is held here,
// counted in TurnState.elementsSent once a message is delivered.
import h from '@satorijs/element'
import type { TurnState } from '../contract/tool'
import { visibleText } from '../util/elements'
import type { OutboundDrop, OutboundElements, OutboundResult, OutboundSend, OutboundServer } from './outbound'

export interface OutboundDropped extends OutboundDrop {
  src: string
}

/** What a send of one call may still send of each capped tag, counted down as elements are made ready. */
export type OutboundBudget = Map<string, number>

/** What this turn may still send of each capped tag (its cap less those delivered in the turn). */
export function outboundBudget(table: OutboundElements | undefined, turn: TurnState): OutboundBudget {
  const budget: OutboundBudget = new Map()
  for (const s of table?.servers ?? []) {
    if (s.perTurn) budget.set(countOf(s), Math.max(0, s.perTurn.cap - (turn.elementsSent?.[countOf(s)] ?? 0)))
  }
  return budget
}

/** Counts the tags of a delivered message for the turn, and tells their parts. */
export function outboundSent(outcome: Pick<OutboundOutcome, 'tags' | 'sent'>, turn: TurnState): void {
  if (!outcome.tags.length) return
  const sent = turn.elementsSent ??= {}
  for (const tag of outcome.tags) sent[tag] = (sent[tag] ?? 0) + 1
  for (const told of outcome.sent) told()
}

/** what a server's elements count under: its shared key (the acts) or its tag */
const countOf = (s: OutboundServer) => s.perTurn?.key ?? s.tag

/** An act of the message (SPEC §23), made once the message is sent. */
export interface OutboundAct {
  src: string
  act(): Promise<OutboundDrop | undefined>
}

export interface OutboundOutcome {
  elements: h[]
  /** seconds of speech in the message */
  seconds: number
  /** what was kept of the message's made elements, in order */
  urls: string[]
  /** tags made ready (or their shared count's key), in order: counted for the turn once the message is delivered */
  tags: string[]
  /** acts to make once the message is sent, in order */
  acts: OutboundAct[]
  /** told once the message is delivered */
  sent: (() => void)[]
  /** the report of the last element left out with nothing in its place, if any */
  lastDropped?: OutboundDropped
}

/** The message's elements with those parts serve made ready, or left out and reported in `dropped`. */
export async function resolveOutbound(
  elements: h[], table: OutboundElements | undefined, budget: OutboundBudget, send: OutboundSend, dropped: OutboundDropped[],
): Promise<OutboundOutcome> {
  const outcome: OutboundOutcome = { elements, seconds: 0, urls: [], tags: [], sent: [], acts: [] }
  if (!table || !elements.some(function has(el: h): boolean { return !!table.tag(el.type) || !!el.children?.some(has) })) return outcome
  outcome.elements = await walk(elements, { table, budget, send, dropped, outcome })
  return outcome
}

interface Walk {
  table: OutboundElements
  budget: OutboundBudget
  send: OutboundSend
  dropped: OutboundDropped[]
  outcome: OutboundOutcome
}

async function walk(elements: h[], w: Walk): Promise<h[]> {
  const out: h[] = []
  for (const el of elements) {
    const tag = w.table.tag(el.type)
    if (!tag) {
      out.push(el.children?.length ? h(el.type, el.attrs, await walk(el.children, w)) : el)
      continue
    }
    const server = w.table.server(el.type)
    const result: OutboundResult = server ? await made(el, server, w) : { dropped: tag.off, kept: words(el) }
    if ('dropped' in result) {
      const report = { src: shown(el), ...result.dropped }
      w.dropped.push(report)
      if (result.kept?.length) out.push(...result.kept)
      else w.outcome.lastDropped = report
      continue
    }
    out.push(...result.elements)
    w.outcome.seconds += result.seconds ?? 0
    if (result.url) w.outcome.urls.push(result.url)
    if (result.sent) w.outcome.sent.push(result.sent)
    if (result.act) w.outcome.acts.push({ src: shown(el), act: result.act })
    w.outcome.tags.push(server ? countOf(server) : el.type)
  }
  return out
}

/** `el` made ready by its server: refused first, then held to the turn's cap. */
async function made(el: h, server: OutboundServer, w: Walk): Promise<OutboundResult> {
  const refused = server.refuse?.(el, w.send)
  if (refused) return { dropped: refused }
  const left = w.budget.get(countOf(server))
  if (server.perTurn && left !== undefined && left <= 0) return { dropped: server.perTurn.over }
  const result = await server.resolve(el, w.send).catch((e: any): OutboundResult => ({
    dropped: { code: e?.code ?? 'send_failed', message: `<${el.type}> could not be made ready: ${e?.message ?? e}` },
  }))
  if (!('dropped' in result) && left !== undefined) w.budget.set(countOf(server), left - 1)
  return result
}

/** an element's words, as text (what stays of a `<voice>` that cannot be spoken) */
export function words(el: h): h[] {
  const text = wordsOf(el)
  return text ? [h.text(text)] : []
}

function wordsOf(el: h): string {
  return visibleText(el.children ?? []).replace(/\s+/g, ' ').trim()
}

/** the element as the mind wrote it, clipped, for `dropped` */
export function shown(el: h): string {
  const text = wordsOf(el)
  if (!text) return h(el.type, el.attrs).toString().slice(0, 120)
  return `<${el.type}>${text.length > 80 ? `${text.slice(0, 80)}…` : text}</${el.type}>`
}
