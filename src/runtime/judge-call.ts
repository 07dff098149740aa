// wake.judge's call for a runtime (SPEC §15): one yes/no question to the judge model, its tokens
// counted in the usage book like a step's.
import { askJudge, type Verdict } from '../attention/judge'
import type { ModelHandle } from '../model/provider'
import { stepUsage, type UsageBook } from '../usage/book'
import type { Clock } from '../util/clock'

export type JudgeCall = (reason: string, lines: string[]) => Promise<Verdict>

export function judgeCall(o: { id: string; model(id: string): ModelHandle | undefined; persona: string; clock: Clock; usage: UsageBook }): JudgeCall {
  return async (reason, lines) => {
    const handle = o.model(o.id)
    if (!handle) return { speak: false, why: `the judge model "${o.id}" is not configured`, latencyMs: 0 }
    const verdict = await askJudge({ handle, persona: o.persona, lines, reason, now: () => o.clock.monotonic() })
    o.usage.record(o.id, stepUsage(o.id, Math.round(verdict.latencyMs), verdict.usage), !!verdict.usage)
    return verdict
  }
}
