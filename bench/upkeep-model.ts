// The scripted upkeep model the upkeep benches share (33–35): it reads a chunk's request as a model
// would see it — the [people] lines (name, id, note URL) and the message lines (`#id HH:MM name:
// text`) — and answers with the proposals a rule picks from those lines, in one step. Every answer
// carries usage as a DeepSeek-like server bills it: the prompt in Qwen3 tokens (bench/tokens.ts)
// and, as cache hits, the part that repeats the previous request's prefix (bench 12's measure).
import { call } from '../tests/support/harness'
import type { RecordedRequest } from '../tests/support/fakes/scripted-server'
import type { FakeReply } from '../tests/support/fake-openai'
import { firstText, isUpkeep } from '../tests/support/upkeep'
import { qwen3Tokens } from './tokens'

/** A message line of a chunk, with what the [people] lines say of its author. */
export interface ChunkLine { id: string; name: string; uid?: string; note?: string; text: string; url: string }

/** One request as billed: its Qwen3 tokens, those repeating the previous request's prefix, and its parts. */
export interface Billed { tokens: number; cached: number; output: number; parts: { tools: number; system: number; first: number; rest: number } }

/** The lines of a chunk's first message. */
export function chunkLines(req: RecordedRequest): ChunkLine[] {
  const first = firstText(req)
  const own = /Message #id is (\S+)\/id\]/.exec(first)?.[1] ?? ''
  const people = new Map<string, { uid: string; note: string }>()
  for (const m of first.matchAll(/^- (.+?) \(id (\S+)\): (\S+)/gm)) people.set(m[1], { uid: m[2], note: m[3] })
  const out: ChunkLine[] = []
  for (const m of first.matchAll(/^#(\S+) (.+?): (.*)$/gm)) {
    const who = people.get(m[2])
    out.push({ id: m[1], name: m[2], uid: who?.uid, note: who?.note, text: m[3], url: `${own}/${m[1]}` })
  }
  return out
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** What a provider's prefix cache sees: tool declarations, then the system prompt, then the messages, in order. */
function wireText(req: RecordedRequest): { tools: string; system: string; first: string; rest: string } {
  const [system, first, ...rest] = req.body.messages as any[]
  const str = (m: any) => typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '')
  return { tools: JSON.stringify(req.body.tools ?? []), system: str(system), first: str(first), rest: rest.map(m => JSON.stringify(m)).join('') }
}

/**
 * A FakeOpenAI script for upkeep: each upkeep request is answered with `pick(lines)`'s proposals
 * (none: a plain answer, the end of the chunk), and billed into `billed`. Other requests (a turn)
 * go to `other`.
 */
export function upkeepModel(
  pick: (lines: ChunkLine[], first: string) => Record<string, unknown>[],
  billed: Billed[],
  other: (req: RecordedRequest) => FakeReply = () => ({ toolCalls: [call('finish', {})] }),
) {
  let previous = ''
  return (req: RecordedRequest): FakeReply => {
    if (!isUpkeep(req)) return other(req)
    const w = wireText(req)
    const all = w.tools + w.system + w.first + w.rest
    const common = commonPrefix(previous, all)
    previous = all
    const parts = { tools: qwen3Tokens(w.tools), system: qwen3Tokens(w.system), first: qwen3Tokens(w.first), rest: qwen3Tokens(w.rest) }
    const tokens = parts.tools + parts.system + parts.first + parts.rest
    const cached = common ? Math.min(tokens, qwen3Tokens(all.slice(0, common))) : 0
    // a chunk answered once: its proposals made, the next step is its end
    const answered = (req.body.messages as any[]).some(m => m.role === 'tool')
    const proposals = answered ? [] : pick(chunkLines(req), firstText(req))
    billed.push({ tokens, cached, output: qwen3Tokens(JSON.stringify(proposals)), parts })
    const usage = { prompt_tokens: tokens, prompt_cache_hit_tokens: cached }
    return proposals.length ? { toolCalls: proposals.map(p => call('propose', p)), usage } : { content: 'nothing more to change', usage }
  }
}
