// The judge (SPEC §15, `wake.judge`): before a wake by a keyword, a name or a wait window starts a
// turn, a small model is asked one yes/no question with the recent messages. It must answer
// within 1,500 ms; no answer (a timeout, an error, anything but yes) means no: a judge that is
// down keeps the mind quiet rather than chatty. A private message, a mention or a quote never
// asks it. It is called through the model calls, which count its tokens like any step's and never
// fail it over (no time for a second model).
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { stepTokens, type CallPort } from '../model/calls'
import { FailedStep } from '../model/failover'
import { splitReasoning } from '../model/reasoning'
import type { Payer } from '../contract/budget'

export const JUDGE_TIMEOUT_MS = 1500
const YES = /^[\s"'`*([]*(yes|y|是|要|对|はい)\b/iu

export interface Verdict {
  speak: boolean
  /** why, for the console when it is no */
  why: string
  latencyMs: number
}

/** Wake reasons the judge is asked about; the others always wake. */
export function judged(reason: string): boolean {
  return reason.startsWith('keyword:') || reason.startsWith('name:') || reason.startsWith('wait:')
}

export async function askJudge(o: {
  calls: CallPort
  /** wake.judge: the model's id */
  model: string
  persona: string
  /** the newest lines of the chat, oldest first */
  lines: string[]
  reason: string
  now(): number
  signal?: AbortSignal
  timeoutMs?: number
  /** who pays for the question (SPEC §22): the conversation whose fact is judged */
  payer?: Payer
}): Promise<Verdict> {
  const started = o.now()
  if (!o.calls.handle(o.model)) return { speak: false, why: `the judge model "${o.model}" is not configured`, latencyMs: 0 }
  const timeout = AbortSignal.timeout(o.timeoutMs ?? JUDGE_TIMEOUT_MS)
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout
  const system = `You decide whether a chat bot should speak now. It is this character:\n${o.persona.trim().slice(0, 600)}\n\n`
    + 'It speaks when it is addressed, asked, or has something worth adding; it stays quiet when people talk among themselves. '
    + 'Answer with one word: yes or no.'
  const user = `The chat, oldest first:\n${o.lines.join('\n')}\n\nIt noticed: ${o.reason}. Should it speak now? yes or no`
  try {
    const { result } = await o.calls.run({
      kind: 'judge', model: o.model, signal: o.signal, ...o.payer ? { payer: o.payer } : {},
      call: h => (h.model as LanguageModelV3).doGenerate({
        prompt: [{ role: 'system', content: system }, { role: 'user', content: [{ type: 'text', text: user }] }],
        maxOutputTokens: 16,
        abortSignal: signal,
      }),
      tokens: r => stepTokens(r.usage),
    })
    const text = splitReasoning(result!.content.filter(p => p.type === 'text').map(p => (p as { text: string }).text).join('')).text
    const speak = YES.test(text)
    return { speak, why: speak ? 'yes' : `the judge said ${JSON.stringify(text.trim().slice(0, 40) || 'nothing')}`, latencyMs: o.now() - started }
  } catch (e: any) {
    const late = timeout.aborted
    const err = e instanceof FailedStep ? e.error as any : e
    const why = late
      ? `the judge did not answer within ${o.timeoutMs ?? JUDGE_TIMEOUT_MS} ms`
      : `the judge failed: ${String(err?.message ?? err).slice(0, 200)}`
    return { speak: false, why, latencyMs: o.now() - started }
  }
}
