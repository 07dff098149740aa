// The turn loop (SPEC §4.6): one model call per step, then the step's tool calls, then the stop rule.
import type { ModelMessage, ToolResultPart } from 'ai'
import { callModel, offerTools, type ModelCall } from '../model/call-model'
import { exitToolResult } from '../exit/tool-output'
import { isLifetime, type AttachmentItem } from '../exit/attachments'
import type { Tool, ToolCallContext, TurnState } from '../tools/types'
import type { Conversation, TurnRequest } from './conversation'
import { stepEndsTurn, type StepCall } from './stop-rule'
import type { Entry } from './types'

const REMINDER = '[reminder: your last reply was plain text, and plain text reaches nobody. Speak with send_message, or call finish to stay silent.]'

export async function runTurn(conv: Conversation, req: TurnRequest): Promise<void> {
  const { deps } = conv
  const state: TurnState = { number: ++conv.turnCounter, wokeAt: deps.now() }
  conv.currentTurn = state
  const opening: Entry[] = [{ type: 'turn', at: state.wokeAt, turn: state.number, reason: req.reason }]
  if (req.note) opening.push({ type: 'note', at: state.wokeAt, kind: 'wake', text: req.note })
  conv.append(opening)
  deps.logger.debug('%s: turn %d starts (%s)', conv.key, state.number, req.reason)
  let strays = 0
  let why = 'maxSteps reached'
  try {
    for (let step = 0; step < conv.profile.maxSteps && !conv.signal.aborted; step++) {
      conv.flushInbox()
      const handle = deps.model()
      if (!handle) {
        deps.logger.warn('profile %s: model "%s" is not available; the turn ends', conv.profile.id, conv.profile.model)
        why = 'no model'
        return
      }
      const tools = deps.tools(conv)
      const request = await conv.buildRequest()
      let result
      try {
        result = await callModel(handle, { system: deps.system(), messages: request.messages, tools: offerTools(tools), signal: conv.signal })
      } catch (e: any) {
        if (!conv.signal.aborted) deps.logger.warn('conversation %s: the model call failed, the turn ends: %s', conv.key, describeError(e))
        why = 'model call failed'
        return
      }
      if (!result.calls.length) {
        const end = await strayStep(conv, state, result.assistant, result.text, ++strays, request.shownOnce)
        if (end) {
          why = `plain text (${conv.profile.strayText})`
          return
        }
        continue
      }
      const calls = await runCalls(conv, state, tools, result.calls)
      deps.logger.debug('%s: turn %d step %d: %s', conv.key, state.number, step + 1, calls.map(c => c.valid ? c.name : `${c.name} (invalid)`).join(', '))
      const entries: Entry[] = [{ type: 'step', at: deps.now(), turn: state.number, messages: stepMessages(result.assistant, calls) }]
      for (const c of calls) {
        if (c.attachments.length) entries.push({ type: 'attachments', at: deps.now(), turn: state.number, id: c.id, source: 'tool', tool: c.name, items: c.attachments })
      }
      await conv.append(entries)
      // The response is persisted: only now do the `once` images of this request count as shown.
      await conv.markShown(request.shownOnce)
      if (stepEndsTurn(calls)) {
        why = 'closing action'
        return
      }
    }
  } finally {
    deps.logger.debug('%s: turn %d ends (%s)', conv.key, state.number, conv.signal.aborted ? 'stopped' : why)
    conv.currentTurn = undefined
    conv.afterTurn(state)
  }
}

interface ExecutedCall extends StepCall {
  id: string
  result: ToolResultPart['output']
  attachments: AttachmentItem[]
}

async function runCalls(conv: Conversation, state: TurnState, tools: Map<string, Tool>, calls: ModelCall[]): Promise<ExecutedCall[]> {
  // Started in call order, so sends queue in the order the model wrote them.
  return Promise.all(calls.map(async (c): Promise<ExecutedCall> => {
    const tool = tools.get(c.name)
    const base = { id: c.id, name: c.name, input: c.input, attachments: [] as AttachmentItem[] }
    if (c.invalid || !tool) {
      const message = c.invalid ?? `unknown tool "${c.name}"`
      return { ...base, valid: false, output: undefined, result: { type: 'error-text', value: message } }
    }
    const ctx: ToolCallContext = { callId: c.id, fromProgram: false, signal: conv.signal, turn: state }
    let output: unknown
    try {
      output = await tool.execute(c.input, ctx)
    } catch (e: any) {
      conv.deps.logger.debug('tool %s failed: %s', c.name, e?.stack ?? e)
      return { ...base, valid: true, output: undefined, result: { type: 'error-text', value: describeError(e) } }
    }
    try {
      const lifetime = (c.input as any)?.lifetime
      const exit = await exitToolResult(tool, c.input, output, {
        tool: c.name, callId: c.id, stores: conv.deps.stores, lifetime: isLifetime(lifetime) ? lifetime : 'once',
      })
      return { ...base, valid: true, output, result: exit.output, attachments: exit.attachments }
    } catch (e: any) {
      conv.deps.logger.warn('tool %s: its result could not be prepared for the model: %s', c.name, e?.stack ?? e)
      return { ...base, valid: true, output, result: { type: 'error-text', value: `the result could not be shown: ${describeError(e)}` } }
    }
  }))
}

function stepMessages(assistant: ModelMessage | undefined, calls: ExecutedCall[]): ModelMessage[] {
  const content = calls.map(c => ({ type: 'tool-result' as const, toolCallId: c.id, toolName: c.name, output: c.result }))
  return [assistant ?? { role: 'assistant', content: [] }, { role: 'tool', content }]
}

/** A step with no tool call delivered nothing (SPEC §4.6 strayText). Returns true when the turn ends. */
async function strayStep(conv: Conversation, state: TurnState, assistant: ModelMessage | undefined, text: string, count: number, shownOnce: string[]): Promise<boolean> {
  const { deps } = conv
  const policy = conv.profile.strayText
  if (policy === 'drop') return true
  if (policy === 'send' && text.trim()) {
    const tool = deps.tools(conv).get('send_message')
    const target = conv.lastTarget
    const input = { messages: [text.trim()], mode: 'text' as const, ...(conv.cross && target ? { target: { channel: target.channel, bot: target.bot } } : {}) }
    const id = `stray-${state.number}-${count}`
    const output = await tool.execute(input, { callId: id, fromProgram: false, signal: conv.signal, turn: state })
    // Stored as the send_message call it became, so the mind later sees what it said.
    await conv.append([{ type: 'step', at: deps.now(), turn: state.number, messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_message', input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'send_message', output: { type: 'json', value: output as any } }] },
    ] }])
    await conv.markShown(shownOnce)
    return true
  }
  if (count > 1) return true
  const stored: Entry[] = []
  if (assistant && text.trim()) stored.push({ type: 'step', at: deps.now(), turn: state.number, messages: [assistant] })
  stored.push({ type: 'note', at: deps.now(), kind: 'reminder', text: REMINDER })
  await conv.append(stored)
  await conv.markShown(shownOnce)
  return false
}

function describeError(e: any): string {
  if (!e) return 'unknown error'
  const cause = e.lastError ?? e.cause
  const msg = e.message ?? String(e)
  return cause?.message && !msg.includes(cause.message) ? `${msg} (${cause.message})` : msg
}
