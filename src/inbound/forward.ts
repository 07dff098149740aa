// Forwarded messages as the model reads them (SPEC §19): their messages, one a line under the author's
// name, nested forwards indented inside, media registered through the same renderers:
//   [forwarded messages:
//     Alice: hello
//     Bob: [forwarded messages:
//       Carol: <face name="微笑"/>
//     ]
//   … 3 more messages left out
//   ]
// The whole expansion is bounded: 20 messages and 2,000 UTF-16 units, cut on a whole character.
// Without its messages (the platform cannot fetch them, the fetch failed or found nothing):
// `[forwarded messages]`. Where the messages come from:
// - children: Satori's `<message forward><message><author name/>…</message></message>`, or an adapter
//   that puts the content inside the element;
// - NapCat's `forward` segment with `content` (its messages, when NapCat parsed them; NapCatQQ's
//   multiForwardMsgElement converter), which the OneBot adapter passes through as an attribute;
// - otherwise the platform's fetch by id (`kit.forward`: OneBot's get_forward_msg, koishi/adapters/onebot/forward.ts at the edge).
import h from '@satorijs/element'
import { safeCut } from '../util/surrogate'
import { displayName, indentContinuation } from '../util/transcript-text'
import { authorOf, decodeSegments, type OneBotMessage } from './onebot-segments'
import type { ExpansionBudget, ForwardedMessage, RenderChildren, RenderKit } from './kit'

export const FORWARD_MAX_MESSAGES = 20
export const FORWARD_MAX_UNITS = 2000
/** forwards inside forwards, the outermost one counted */
const MAX_NESTING = 4
/** all fetches of one expansion (each one is also bounded by the platform's fetch) */
const EXPANSION_MS = 10_000
const UNEXPANDED = '[forwarded messages]'

/** The expansion's own text (headers, names, closing brackets): never indented again, never cut inside. */
const structural = new WeakSet<h>()
/** The text that starts a message's line: counts the messages shown. */
const lineStarts = new WeakSet<h>()
/** Text already indented for its forward's depth (a nested expansion's), not indented again by the outer one */
const placed = new WeakSet<h>()

export function isForward(el: h): boolean {
  return el.type === 'forward' || (el.type === 'message' && !!el.attrs?.forward)
}

export function renderForward(el: h, kit: RenderKit, children: RenderChildren): Promise<h[]> | undefined {
  return isForward(el) ? expand(el, kit, children) : undefined
}

async function expand(el: h, kit: RenderKit, children: RenderChildren): Promise<h[]> {
  const outer = kit.expansion
  const budget: ExpansionBudget = outer?.budget ?? { left: FORWARD_MAX_MESSAGES, total: 0, deadline: Date.now() + EXPANSION_MS }
  const depth = outer ? outer.depth + 1 : 0
  const got = depth < MAX_NESTING && budget.left > 0 ? await messagesOf(el, kit, budget) : undefined
  const messages = Array.isArray(got) ? got.filter(m => m && typeof m === 'object') : []
  if (!messages.length) return [mark(h.text(UNEXPANDED))]
  budget.total += messages.length
  const shown = messages.slice(0, budget.left)
  budget.left -= shown.length
  const inner: RenderKit = { ...kit, expansion: { budget, depth } }
  const indent = '\n' + '  '.repeat(depth + 1)
  const out: h[] = [mark(h.text('[forwarded messages:'))]
  for (const m of shown) {
    out.push(mark(h.text(`${indent}${displayName(m.author, 'someone')}: `), true))
    // a line break of any kind inside a message keeps its text under its author (SPEC §22)
    for (const r of await children(m.elements ?? [], inner)) out.push(r.type === 'text' && !placed.has(r) ? indented(r, indent) : r)
  }
  out.push(mark(h.text(`\n${'  '.repeat(depth)}]`)))
  for (const el of out) if (el.type === 'text') placed.add(el)
  return outer ? out : cut(out, budget)
}

async function messagesOf(el: h, kit: RenderKit, budget: ExpansionBudget): Promise<ForwardedMessage[] | undefined> {
  if (el.children?.length) return fromChildren(el.children)
  const content = el.attrs?.content
  if (Array.isArray(content) && content.length) {
    return content.filter(m => m && typeof m === 'object').map((m: OneBotMessage) => ({
      author: authorOf(m).name, elements: decodeSegments(m.message ?? m.content),
    }))
  }
  const id = el.attrs?.id
  if (!kit.forward || (typeof id !== 'string' && typeof id !== 'number') || !String(id) || Date.now() > budget.deadline) return undefined
  try {
    return await kit.forward(String(id))
  } catch {
    return undefined
  }
}

/** Satori's form: each `<message>` child a message, its `<author>` the name; other children one message. */
function fromChildren(children: h[]): ForwardedMessage[] {
  const messages = children.filter(c => c?.type === 'message')
  if (!messages.length) return [{ author: '', elements: children }]
  return messages.map(m => {
    const author = m.children?.find(c => c?.type === 'author')
    const a = { ...m.attrs, ...author?.attrs }
    return { author: a.name ?? a.nickname ?? a.username ?? a.userId ?? a.id ?? '', elements: (m.children ?? []).filter(c => c?.type !== 'author') }
  })
}

function mark(el: h, start = false): h {
  structural.add(el)
  if (start) lineStarts.add(el)
  return el
}

function indented(el: h, indent: string): h {
  const text = String(el.attrs.content ?? '')
  const lines = indentContinuation(text)
  // deeper than its author's line: a line typed to look like another message stays under this one
  return lines === text ? el : h.text(lines.replace(/\n {2}/g, `${indent}  `))
}

/** The outermost expansion within FORWARD_MAX_UNITS, its open brackets closed, saying how many messages were left out. */
function cut(out: h[], budget: ExpansionBudget): h[] {
  const kept: h[] = []
  let used = 0
  let shown = 0
  let open = 0
  let truncated = false
  for (const el of out) {
    const text = el.type === 'text' ? String(el.attrs.content ?? '') : el.toString()
    if (used + text.length <= FORWARD_MAX_UNITS) {
      kept.push(el)
      used += text.length
      if (lineStarts.has(el)) shown++
      if (structural.has(el)) open += text === '[forwarded messages:' ? 1 : text.trimStart() === ']' ? -1 : 0
      continue
    }
    // a person's text is cut on a whole character; an element or the expansion's own text is left out whole
    const room = FORWARD_MAX_UNITS - used
    if (el.type === 'text' && !structural.has(el) && room > 0) kept.push(h.text(`${text.slice(0, safeCut(text, room))}…`))
    truncated = true
    break
  }
  const left = budget.total - shown
  if (!truncated) {
    if (left <= 0) return out
    // the outermost closing bracket comes after the note
    kept.pop()
  }
  // close the forwards the cut fell inside, innermost first
  for (let depth = open - 1; truncated && depth > 0; depth--) kept.push(h.text(`\n${'  '.repeat(depth)}]`))
  if (left > 0) kept.push(h.text(`\n  … ${left} more message${left === 1 ? '' : 's'} left out`))
  return [...kept, h.text('\n]')]
}
