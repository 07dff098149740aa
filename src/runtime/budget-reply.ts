// A turn a budget holds (SPEC §22): the step in flight has completed; no more steps. Under
// `onExceeded: reply` the runtime (not the model) sends budgets.reply once per conversation and
// day, through send_message like a stray text (typed, censored, stored as what the mind said).
import type { BudgetExceeded } from '../contract/budget'
import type { TurnState } from '../contract/tool'
import type { TurnPort } from './turn-port'

export async function heldTurn(port: TurnPort, state: TurnState, held: BudgetExceeded): Promise<void> {
  const { budget, key } = held.hold
  port.logger.debug('conversation %s: turn %d held by the %s budget (%s)', port.key, state.number, budget, key)
  if (held.hold.then !== 'reply') return
  const text = port.calls().heldReply(port.key)
  if (!text) return
  const tool = port.tools().get('send_message')
  const target = port.lastTarget()
  if (!tool) return
  const cross = port.profile.mode === 'cross'
  if (cross && !target) return
  const input = { messages: [text], mode: 'text' as const, ...(cross && target ? { target: { channel: target.channel, bot: target.bot } } : {}) }
  const id = `budget-${state.number}`
  try {
    const output = await tool.execute(input, { callId: id, fromProgram: false, signal: port.toolSignal, turn: state })
    await port.append([{ type: 'step', at: port.clock.now(), turn: state.number, messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_message', input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'send_message', output: { type: 'json', value: output as any } }] },
    ] }])
  } catch (e: any) {
    port.logger.warn('conversation %s: the budget reply could not be sent: %s', port.key, e?.message ?? e)
  }
}
