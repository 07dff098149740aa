/** An error's message, with its cause when the message does not already say it (AI SDK retries wrap the last error). */
export function describeError(e: any): string {
  if (!e) return 'unknown error'
  const cause = e.lastError ?? e.cause
  const msg = e.message ?? String(e)
  return cause?.message && !msg.includes(cause.message) ? `${msg} (${cause.message})` : msg
}
