// wait — declare the next wake-up and end the turn (SPEC §4.3).
import { z } from 'zod'
import type { Tool, WaitDeclaration } from '../contract/tool'
import DESCRIPTION from './wait.txt'

const inputSchema = z.object({
  seconds: z.number().min(1).max(86400).optional().describe('wake up this many seconds after the turn ends'),
  messages: z.number().int().min(1).max(1000).optional().describe('wake up after this many new messages'),
})

export type WaitResult = { ok: true; wait: WaitDeclaration } | { ok: true; none: true }

export function waitTool(): Tool<z.infer<typeof inputSchema>, WaitResult> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema,
    execute: async (input, ctx) => {
      const wait: WaitDeclaration = {}
      if (input.seconds !== undefined) wait.seconds = input.seconds
      if (input.messages !== undefined) wait.messages = input.messages
      if (!Object.keys(wait).length) {
        ctx.turn.wait = null
        return { ok: true, none: true }
      }
      ctx.turn.wait = wait
      return { ok: true, wait }
    },
  }
}
