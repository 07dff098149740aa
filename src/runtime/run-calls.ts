// The tool calls of one step: each runs, and its result passes the unified exit (SPEC §7).
import type { ModelMessage, ToolResultPart } from 'ai'
import type { ModelCall } from '../model/call-model'
import { exitToolResult } from '../exit/tool-output'
import type { AttachmentItem } from '../exit/attachments'
import type { Tool, ToolCallContext, TurnState } from '../contract/tool'
import { turnScope } from '../contract/turn-scope'
import { placeOf } from '../resources/scope'
import { describeError } from '../util/describe-error'
import type { StepCall } from './stop-rule'
import type { TurnPort } from './turn-port'

export interface ExecutedCall extends StepCall {
  id: string
  result: ToolResultPart['output']
  attachments: AttachmentItem[]
}

/** `progress`: messages a call delivered so far (send_message) */
/** How many messages of a call are delivered so far (the console's live view). */
export type CallProgress = (callId: string, delivered: number) => void

export async function runCalls(
  port: TurnPort, state: TurnState, tools: Map<string, Tool>, calls: ModelCall[], progress?: CallProgress,
): Promise<ExecutedCall[]> {
  // Started in call order, so sends queue in the order the model wrote them.
  const done = await Promise.all(calls.map(c => runCall(port, state, tools, c, progress)))
  return done.map(c => ({ ...c, result: port.redact.value(c.result) }))
}

function runCall(port: TurnPort, state: TurnState, tools: Map<string, Tool>, c: ModelCall, progress?: CallProgress): Promise<ExecutedCall> {
  return (async (): Promise<ExecutedCall> => {
    const tool = tools.get(c.name)
    const base = { id: c.id, name: c.name, input: c.input, attachments: [] as AttachmentItem[] }
    if (c.invalid || !tool) {
      const message = c.invalid ?? `unknown tool "${c.name}"`
      return { ...base, valid: false, output: undefined, result: { type: 'error-text', value: message } }
    }
    const ctx: ToolCallContext = {
      callId: c.id, fromProgram: false, signal: port.toolSignal, turn: state, ...(progress ? { progress: n => progress(c.id, n) } : {}),
    }
    let output: unknown
    try {
      output = await tool.execute(c.input, ctx)
    } catch (e: any) {
      port.logger.debug('tool %s failed: %s', c.name, e?.stack ?? e)
      return { ...base, valid: true, output: undefined, result: { type: 'error-text', value: describeError(e) } }
    }
    try {
      const owner = placeOf(turnScope(state))
      const exit = await exitToolResult(tool, c.input, output, { tool: c.name, callId: c.id, stores: port.stores, ...owner ? { owner } : {} })
      return { ...base, valid: true, output, result: exit.output, attachments: exit.attachments }
    } catch (e: any) {
      port.logger.warn('tool %s: its result could not be prepared for the model: %s', c.name, e?.stack ?? e)
      return { ...base, valid: true, output, result: { type: 'error-text', value: `the result could not be shown: ${describeError(e)}` } }
    }
  })()
}

/** The step as stored: the assistant message and one tool message with every result. */
export function stepMessages(assistant: ModelMessage | undefined, calls: ExecutedCall[]): ModelMessage[] {
  const content = calls.map(c => ({ type: 'tool-result' as const, toolCallId: c.id, toolName: c.name, output: c.result }))
  return [assistant ?? { role: 'assistant', content: [] }, { role: 'tool', content }]
}
