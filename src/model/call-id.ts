// Tool-call ids in requests are kotodama's own (issue 19): some servers number their calls `call_0`,
// `call_1` in every response, and a request carrying one id twice is refused with HTTP 400 by
// OpenAI-style validators (agno #5116), which would break the conversation for good. Nine
// alphanumerics, the strictest format a server is known to demand (Mistral's).
import { randomBytes } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export function newCallId(): string {
  const bytes = randomBytes(9)
  let id = ''
  // 62 does not divide 256; the bias is irrelevant for uniqueness
  for (const b of bytes) id += ALPHABET[b % 62]
  return id
}
