// Reasoning is never chat text (SPEC §11). Models served without a reasoning parser put it into the
// content as <think>…</think> or <thinking>…</thinking>; a cut answer leaves the block unclosed,
// and some templates (deepseek-r1 on Ollama) open the answer inside the block, so the content
// starts with reasoning and a lone closing tag. A scan rather than the AI SDK's
// extractReasoningMiddleware: that one handles closed blocks of one tag name only.

const OPEN = /<(think|thinking)>/i

export interface SplitText {
  /** the content without its reasoning */
  text: string
  reasoning: string
}

export function splitReasoning(content: string): SplitText {
  if (!content.includes('<')) return { text: content, reasoning: '' }
  let text = ''
  const reasoning: string[] = []
  let rest = content
  // a closing tag before any opening one: everything before it was reasoning
  const lone = /<\/(think|thinking)>/i.exec(rest)
  const firstOpen = OPEN.exec(rest)
  if (lone && (!firstOpen || lone.index < firstOpen.index)) {
    reasoning.push(rest.slice(0, lone.index))
    rest = rest.slice(lone.index + lone[0].length)
  }
  for (;;) {
    const open = OPEN.exec(rest)
    if (!open) {
      text += rest
      break
    }
    text += rest.slice(0, open.index)
    const after = rest.slice(open.index + open[0].length)
    const close = new RegExp(`</${open[1]}>`, 'i').exec(after)
    if (!close) {
      // unclosed: the output was cut inside the reasoning
      reasoning.push(after)
      break
    }
    reasoning.push(after.slice(0, close.index))
    rest = after.slice(close.index + close[0].length)
  }
  return { text: reasoning.length ? text.replace(/^\s+/, '') : text, reasoning: reasoning.join('\n').trim() }
}
