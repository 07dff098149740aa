// When a step ends the turn (SPEC §4.6).

export interface StepCall {
  name: string
  /** false when the input failed validation or the tool does not exist */
  valid: boolean
  input: any
  output: any
}

const CLOSING = new Set(['send_message', 'finish', 'wait'])

export function stepEndsTurn(calls: StepCall[]): boolean {
  if (calls.some(c => c.valid && (c.name === 'finish' || c.name === 'wait'))) return true
  const sends = calls.filter(c => c.name === 'send_message')
  if (!sends.length) return false
  if (!calls.every(c => c.valid && CLOSING.has(c.name))) return false
  return sends.every(c => c.output?.ok === true && c.input?.continue !== true)
}
