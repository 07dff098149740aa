// An error in words, for a log line or a tool's result: the one way kotodama says what was thrown.

/**
 * An error's message, with its cause when the message does not already say it (AI SDK retries wrap
 * the last error); at most `maxChars`. Never throws, whatever was thrown (a getter that throws, a
 * value without a message).
 */
export function describeError(e: unknown, maxChars = Infinity): string {
  let text: string
  try {
    text = words(e)
  } catch {
    return 'unknown error'
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text
}

function words(e: any): string {
  if (e === null || e === undefined) return 'unknown error'
  const msg = typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e)
  const cause = typeof e === 'object' ? e.lastError ?? e.cause : undefined
  const said = typeof cause?.message === 'string' ? cause.message : undefined
  return said && !msg.includes(said) ? `${msg} (${said})` : msg
}
