// Tool calls left in the text (SPEC §11): in `native` mode a server whose chat template failed
// (Ollama and vLLM with Qwen models; openclaw #122224, #99251) answers with
// `<tool_call>{"name": ..., "arguments": ...}</tool_call>` in `content` and no native call. Those
// blocks are read with the hermes parser of @ai-sdk-tool/parser and run as if they were native;
// a block the parser cannot read becomes an invalid call the model is told about. The markup is
// never left in the step's text, so it never reaches a chat.
import type { LanguageModelV3Content, LanguageModelV3FunctionTool } from '@ai-sdk/provider'
import { hermesProtocol } from '@ai-sdk-tool/parser'
import { brokenCall } from './dialects'

const MARK = '<tool_call>'
const hermes = hermesProtocol()

export function hasLeftoverCalls(text: string): boolean {
  return text.includes(MARK)
}

/** The text's calls and the text around them, as content parts. */
export function leftoverCalls(text: string, tools: LanguageModelV3FunctionTool[]): LanguageModelV3Content[] {
  const parts = hermes.parseGeneratedText({ text, tools, options: { onError: () => {} } })
  const out: LanguageModelV3Content[] = []
  for (const p of parts) {
    if (p.type !== 'text' || !hasLeftoverCalls(p.text)) {
      out.push(p)
      continue
    }
    const at = p.text.indexOf(MARK)
    if (p.text.slice(0, at).trim()) out.push({ ...p, text: p.text.slice(0, at) })
    out.push(brokenCall(p.text.slice(at), 'hermes'))
  }
  return out
}
