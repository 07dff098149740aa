// The elements a send_message message may hold (SPEC §22 "What it sends cannot reach the host"):
// the message as the model wrote it, parsed, keeping only the elements and attributes of
// send-elements.yml. Anything else is removed with its text kept and reported in `dropped`, once
// per element type and message. One walk of the tree, on the hot path of every send.
import h from '@satorijs/element'
import { clip } from '../util/clip'
import type { OutboundElements } from './outbound'
import TABLE from './send-elements.yml'

export interface Dropped { src: string; code: string; message: string }

const ALLOWED = new Map<string, ReadonlySet<string>>(Object.entries(TABLE.elements as Record<string, string[]>).map(([k, v]) => [k, new Set(v)]))
const BARE_ONLY = new Set<string>(TABLE.bareOnly)
/** Past this depth, allowed elements lose their wrapping and keep their contents: later walks and the adapters recurse. */
const MAX_DEPTH = 32
const WEB_LINK = /^https?:\/\//i
/** What the element parser reads as a tag or a comment (@satorijs/element's tagRegExp1), for a message too deep to parse. */
const MARKUP = /<!--[\s\S]*?-->|<[^>]*>/g
/** what makes the parser do more than keep the text as it is: a tag or comment, an entity, a line break it may trim */
const MARKUP_CHARS = /[<&\n]/

interface Removal { src: string; code: string; count: number; why: (count: number) => string }
type Refusal = { key: string; removal: () => Removal }

/** The attributes the parts' elements keep (`<sticker name>`), beside the table's. */
type PartTags = Pick<OutboundElements, 'attrs'>

/** One message of the model, parsed into the elements that may reach the adapter (and the parts' elements). */
export function readMessage(raw: string, dropped: Dropped[], parts?: PartTags): h[] {
  // no tag, entity or line break: what the parser would make of it is the text itself (a send's usual case)
  if (!MARKUP_CHARS.test(raw)) return raw ? [h.text(raw)] : []
  let parsed: h[]
  try {
    parsed = h.parse(raw)
  } catch (e) {
    // The parser recurses once per level and fails past a few thousand: keep the words.
    if (!(e instanceof RangeError)) throw e
    dropped.push({
      src: clip(raw), code: 'unsupported_element',
      message: 'the message was nested too deeply to read as elements; its text was sent without markup',
    })
    return [h.text(h.unescape(raw.replace(MARKUP, '')))]
  }
  const removed = new Map<string, Removal>()
  const out = walk(parsed, 0, removed, parts)
  for (const r of removed.values()) dropped.push({ src: r.src, code: r.code, message: r.why(r.count) })
  return out
}

function walk(nodes: h[], depth: number, removed: Map<string, Removal>, parts: PartTags | undefined): h[] {
  const out: h[] = []
  // what is unwrapped goes on a stack, not into recursion: 10,000 nested unknown elements cost no stack
  const todo = nodes.slice().reverse()
  while (todo.length) {
    const el = todo.pop()!
    if (el.type === 'text') {
      out.push(el)
      continue
    }
    const allowed = ALLOWED.get(el.type) ?? parts?.attrs(el.type)
    const refusal = allowed ? refused(el) : { key: el.type, removal: () => unsupported(el) }
    if (refusal || (depth >= MAX_DEPTH && el.children?.length)) {
      // the same refusal again in one message counts in its first report
      const seen = refusal && removed.get(refusal.key)
      if (seen) seen.count++
      else if (refusal) removed.set(refusal.key, refusal.removal())
      for (let i = (el.children?.length ?? 0) - 1; i >= 0; i--) todo.push(el.children[i])
      continue
    }
    out.push(h(el.type, kept(el.attrs, allowed), el.children?.length ? walk(el.children, depth + 1, removed, parts) : []))
  }
  return out
}

function kept(attrs: Record<string, unknown>, allowed: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in attrs) if (allowed.has(key)) out[key] = attrs[key]
  return out
}

function refused(el: h): Refusal | undefined {
  if (el.type === 'a' && el.attrs.href !== undefined && !WEB_LINK.test(String(el.attrs.href))) {
    const href = String(el.attrs.href)
    return {
      key: `a ${href}`,
      removal: () => ({
        src: clip(href), code: 'forbidden_source', count: 1,
        why: () => '<a href> takes only http(s):// links; the link text was sent without the link',
      }),
    }
  }
  if (BARE_ONLY.has(el.type) && Object.keys(el.attrs).length) {
    return {
      key: `${el.type} with attributes`,
      removal: () => ({
        src: tag(el), code: 'unsupported_element', count: 1,
        why: () => `<${el.type}> with attributes is not sent (no forwards); its text was kept`,
      }),
    }
  }
  return undefined
}

function unsupported(el: h): Removal {
  return {
    src: tag(el), code: 'unsupported_element', count: 1,
    why: n => `<${clip(el.type, 40)}>${n > 1 ? ` (${n} of them)` : ''} is not sent: only the elements send_message's description lists are; its text was kept`,
  }
}

/** the opening tag as written, without contents, clipped (SPEC §10) */
function tag(el: h): string {
  return clip(h(el.type, el.attrs).toString())
}
