// wake.judge's call for a runtime (SPEC §15): one yes/no question to the judge model, through the
// runtime's model calls (counted like a step, never failed over).
import { askJudge, type Verdict } from '../attention/judge'
import type { Payer } from '../contract/budget'
import type { CallPort } from '../model/calls'
import type { Clock } from '../util/clock'

/** `payer`: the conversation whose facts are judged and their authors; they pay for the call (SPEC §22) */
export type JudgeCall = (reason: string, lines: string[], payer?: Payer) => Promise<Verdict>

export function judgeCall(o: { id: string; calls: CallPort; persona: string; clock: Clock }): JudgeCall {
  const now = () => o.clock.monotonic()
  return (reason, lines, payer) => askJudge({
    calls: o.calls, model: o.id, persona: o.persona, lines, reason, now, ...payer ? { payer } : {},
  })
}
