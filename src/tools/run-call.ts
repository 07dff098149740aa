// One tool call of a step and its result through the unified exit (SPEC §7): the turn loop's steps
// and a part's background run (upkeep) run their calls the same way. A call the model got wrong, a
// tool that throws and a result that cannot be shown each become an error text the model reads.
import type { ModelMessage, ToolResultPart } from 'ai'
import type { ModelCall } from '../model/call-model'
import { exitToolResult } from '../exit/tool-output'
import type { AttachmentItem } from '../exit/attachments'
import type { MediaStores } from '../exit/store-media'
import type { Tool, ToolCallContext, TurnState } from '../contract/tool'
import { turnScope } from '../contract/turn-scope'
import { placeOf } from '../resources/scope'
import { describeError } from '../util/describe-error'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'

export interface ExecutedCall {
  id: string
  name: string
  input: unknown
  /** false: an unknown tool or an input its schema refused */
  valid: boolean
  /** what the tool returned (undefined when it did not run or threw) */
  output: unknown
  result: ToolResultPart['output']
  attachments: AttachmentItem[]
}

export interface CallRunner {
  readonly logger: Logger
  readonly stores: MediaStores
  readonly redact: Redactor
  /** aborts the tools' work (the turn's tool signal, a run's stop) */
  readonly signal: AbortSignal
}

/** How many messages of a call are delivered so far (the console's live view). */
export type CallProgress = (callId: string, delivered: number) => void

/** The calls of one step, started in call order (sends queue in the order the model wrote them), results redacted. */
export async function runCalls(
  runner: CallRunner, state: TurnState, tools: Map<string, Tool>, calls: ModelCall[], progress?: CallProgress,
): Promise<ExecutedCall[]> {
  const done = await Promise.all(calls.map(c => runCall(runner, state, tools, c, progress)))
  return done.map(c => ({ ...c, result: runner.redact.value(c.result) }))
}

async function runCall(runner: CallRunner, state: TurnState, tools: Map<string, Tool>, c: ModelCall, progress?: CallProgress): Promise<ExecutedCall> {
  const tool = tools.get(c.name)
  const base = { id: c.id, name: c.name, input: c.input, attachments: [] as AttachmentItem[] }
  if (c.invalid || !tool) {
    const message = c.invalid ?? `unknown tool "${c.name}"`
    return { ...base, valid: false, output: undefined, result: { type: 'error-text', value: message } }
  }
  const ctx: ToolCallContext = {
    callId: c.id, fromProgram: false, signal: runner.signal, turn: state, ...(progress ? { progress: n => progress(c.id, n) } : {}),
  }
  let output: unknown
  try {
    output = await tool.execute(c.input, ctx)
  } catch (e: any) {
    runner.logger.debug('tool %s failed: %s', c.name, e?.stack ?? e)
    return { ...base, valid: true, output: undefined, result: { type: 'error-text', value: describeError(e) } }
  }
  try {
    const owner = placeOf(turnScope(state))
    const exit = await exitToolResult(tool, c.input, output, { tool: c.name, callId: c.id, stores: runner.stores, ...owner ? { owner } : {} })
    return { ...base, valid: true, output, result: exit.output, attachments: exit.attachments }
  } catch (e: any) {
    runner.logger.warn('tool %s: its result could not be prepared for the model: %s', c.name, e?.stack ?? e)
    return { ...base, valid: true, output, result: { type: 'error-text', value: `the result could not be shown: ${describeError(e)}` } }
  }
}

/** The step as stored: the assistant message and one tool message with every result. */
export function stepMessages(assistant: ModelMessage | undefined, calls: readonly ExecutedCall[]): ModelMessage[] {
  const content = calls.map(c => ({ type: 'tool-result' as const, toolCallId: c.id, toolName: c.name, output: c.result }))
  return [assistant ?? { role: 'assistant', content: [] }, { role: 'tool', content }]
}
