// A step with no tool call delivered nothing (SPEC §4.6 strayText): remind once, send it, or drop it.
import type { ModelMessage } from 'ai'
import type { TurnState } from '../contract/tool'
import type { TurnPort } from './turn-port'
import type { Entry } from '../history/entries'
import type { StepUsage } from '../usage/book'
import { sendOwn } from './own-send'

const REMINDER = '[reminder: your last reply was plain text, and plain text reaches nobody. Speak with send_message, or call finish to stay silent.]'

export interface StrayStep {
  assistant: ModelMessage | undefined
  text: string
  /** stray steps in this turn so far, this one included */
  count: number
  shownOnce: string[]
  /** which model answered the step, stored with it */
  usage?: StepUsage
}

/** Returns true when the turn ends. */
export async function strayStep(port: TurnPort, state: TurnState, s: StrayStep): Promise<boolean> {
  const policy = port.profile.strayText
  if (policy === 'drop') return true
  const now = port.clock.now()
  // a step of reasoning only (no text left, SPEC §11) has nothing to send: it ends the turn
  if (policy === 'send' && !s.text.trim()) {
    port.markShown(s.shownOnce)
    return true
  }
  if (policy === 'send') {
    // stored as the send_message call it became (own-send.ts)
    await sendOwn(port, state, s.text.trim(), `stray-${state.number}-${s.count}`, s.usage)
    port.markShown(s.shownOnce)
    return true
  }
  if (s.count > 1) return true
  const stored: Entry[] = []
  if (s.assistant && s.text.trim()) stored.push({ type: 'step', at: now, turn: state.number, messages: [s.assistant], ...(s.usage ? { usage: s.usage } : {}) })
  stored.push({ type: 'note', at: now, kind: 'reminder', text: REMINDER })
  await port.append(stored)
  port.markShown(s.shownOnce)
  return false
}
