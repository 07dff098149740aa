// Tool-call ids in requests are kotodama's own (issue 19): some servers number their calls `call_0`,
// `call_1` in every response, and a request carrying one id twice is refused with HTTP 400 by
// OpenAI-style validators (agno #5116), which would break the conversation for good. Nine
// alphanumerics, the strictest format a server is known to demand (Mistral's).
import { randomBytes } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

const ID_LENGTH = 9
/** random bytes for 512 ids, drawn at once: one system call a step was a visible share of a turn */
let pool = Buffer.alloc(0)
let used = 0

export function newCallId(): string {
  if (used + ID_LENGTH > pool.length) {
    pool = randomBytes(ID_LENGTH * 512)
    used = 0
  }
  let id = ''
  // 62 does not divide 256; the bias is irrelevant for uniqueness
  for (let i = 0; i < ID_LENGTH; i++) id += ALPHABET[pool[used + i] % 62]
  used += ID_LENGTH
  return id
}
