// A turn a budget holds (SPEC §22): the step in flight has completed; no more steps. Under
// `onExceeded: reply` the runtime (not the model) sends budgets.reply once per conversation and
// day, through send_message like a stray text (own-send.ts: typed, censored, stored as what the mind said).
import type { BudgetExceeded } from '../contract/budget'
import type { TurnState } from '../contract/tool'
import type { TurnPort } from './turn-port'
import { sendOwn } from './own-send'

export async function heldTurn(port: TurnPort, state: TurnState, held: BudgetExceeded): Promise<void> {
  const { budget, key } = held.hold
  port.logger.debug('conversation %s: turn %d held by the %s budget (%s)', port.key, state.number, budget, key)
  if (held.hold.then !== 'reply') return
  const text = port.calls().heldReply(port.key)
  if (!text) return
  try {
    await sendOwn(port, state, text, `budget-${state.number}`)
  } catch (e: any) {
    port.logger.warn('conversation %s: the budget reply could not be sent: %s', port.key, e?.message ?? e)
  }
}
