// A message the runtime sends in the mind's name (a stray text under strayText: send, budgets.reply):
// through send_message like any other (typed, censored, delivered by the send queue) and stored as
// the send_message call it became, so the mind later sees what it said.
import type { TurnState } from '../contract/tool'
import type { StepUsage } from '../usage/book'
import type { TurnPort } from './turn-port'

/** The send times of the messages delivered since the last step was stored, for the step that stores them (SPEC §23). */
export function takeSent(state: TurnState): { sent?: Record<string, number> } {
  const sent = state.sentAt
  state.sentAt = undefined
  return sent ? { sent } : {}
}

/** false when the catalog has no send_message */
export async function sendOwn(port: TurnPort, state: TurnState, text: string, id: string, usage?: StepUsage): Promise<boolean> {
  const tool = port.tools().get('send_message')
  const target = port.lastTarget()
  const cross = port.profile.mode === 'cross'
  if (!tool) return false
  const input = { messages: [text], mode: 'text' as const, ...(cross && target ? { target: { channel: target.channel, bot: target.bot } } : {}) }
  const output = await tool.execute(input, { callId: id, fromProgram: false, signal: port.toolSignal, turn: state })
  await port.append([{ type: 'step', at: port.clock.now(), turn: state.number, ...(usage ? { usage } : {}), ...takeSent(state), messages: [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_message', input }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'send_message', output: { type: 'json', value: output as any } }] },
  ] }])
  return true
}
