// 8. What a text tool-call dialect adds to a step: one model call of a one-step turn (the real
// built-in tool catalog, a short window) against an in-process model that answers at once with
// (a) a native tool call, (b) the same call as hermes text, (c) as xml text, parsed by the middleware.
import type { ModelMessage } from 'ai'
import type { LanguageModelV3Content } from '@ai-sdk/provider'
import { callModel, offerTools } from '../src/model/call-model'
import { withDialect } from '../src/model/dialects'
import type { ModelHandle } from '../src/model/provider'
import { sendMessageTool } from '../src/tools/send-message'
import { readTool } from '../src/tools/read'
import { waitTool } from '../src/tools/wait'
import { finishTool } from '../src/tools/finish'
import type { Tool } from '../src/contract/tool'
import { interleave, median, type Mode, type Row } from './measure'
import { scriptedModel, sendCall } from './runtime-setup'

const MESSAGES = ['Good morning! The meeting moved to 3 pm.', 'I will bring the slides.']
const ANSWERS: Record<'native' | 'hermes' | 'xml', () => LanguageModelV3Content[]> = {
  native: () => [sendCall(MESSAGES)],
  hermes: () => [{ type: 'text', text: `<tool_call>\n${JSON.stringify({ name: 'send_message', arguments: { messages: MESSAGES } })}\n</tool_call>` }],
  xml: () => [{ type: 'text', text: `<send_message>\n${MESSAGES.map(m => `  <messages>${m}</messages>`).join('\n')}\n</send_message>` }],
}

export async function dialects(mode: Mode): Promise<Row[]> {
  // the tools are only offered, never run: their hosts are not needed
  const tools = new Map<string, Tool>([
    ['send_message', sendMessageTool({} as any) as Tool],
    ['read', readTool({ profile: { attachment: { imageInput: true } } } as any, {} as any, {} as any) as Tool],
    ['wait', waitTool() as Tool], ['finish', finishTool() as Tool],
  ])
  const offered = offerTools(tools)
  const messages: ModelMessage[] = Array.from({ length: 6 }, (_, i) => ({
    role: 'user', content: [{ type: 'text', text: `[2026-01-01 10:0${i}] alice (alice) #${i + 1}: message number ${i} of a short window` }],
  }))
  const config = { id: 'main', baseURL: '', model: 'm', maxRetries: 0, timeoutMs: 60000, toolCalls: 'native' as const, contextTokens: 0, fallback: [] as string[] }
  const handles = Object.fromEntries((Object.keys(ANSWERS) as (keyof typeof ANSWERS)[]).map(d => [d, {
    config: { ...config, toolCalls: d }, model: withDialect(scriptedModel(ANSWERS[d]), d),
  } as ModelHandle])) as Record<keyof typeof ANSWERS, ModelHandle>
  const step = (d: keyof typeof ANSWERS) => async () => {
    const s = await callModel(handles[d], { system: 'You are Neko.', messages, tools: offered })
    if (s.calls.length !== 1 || s.calls[0].invalid || s.text) throw new Error(`${d}: the call was not parsed: ${JSON.stringify(s)}`)
  }
  const reps = mode.full ? 5000 : 1000
  const t = await interleave({ native: step('native'), hermes: step('hermes'), xml: step('xml') }, reps, 200)
  const a = median(t.native)
  const row = (d: 'hermes' | 'xml'): Row => ({
    benchmark: `8 tool-call dialects: one step, ${d} text (median of ${reps})`, figure: median(t[d]), unit: 'ms',
    baseline: a, baselineLabel: 'native tool call', ratio: median(t[d]) / a,
    note: `informational: +${(median(t[d]) - a).toFixed(3)} ms a step (the tools written into the system prompt, `
      + 'the history as text, the reply parsed); the in-process model answers at once, so a real server\'s latency dwarfs it',
  })
  return [row('hermes'), row('xml')]
}
