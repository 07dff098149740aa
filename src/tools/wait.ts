// wait — declare the next wake-up and end the turn (SPEC §4.3); refused after `timing.maxSelfWakes`
// turns in a row that no person woke, until someone writes (SPEC §22 "Loops cost nothing").
import { z } from 'zod'
import type { Tool, WaitDeclaration } from '../contract/tool'
import DESCRIPTION from './wait.txt'

const inputSchema = z.object({
  seconds: z.number().min(1).max(86400).optional(),
  messages: z.number().int().min(1).max(1000).optional(),
})

export type WaitResult =
  | { ok: true; wait: WaitDeclaration }
  | { ok: true; none: true }
  | { ok: false; error: { name: 'WaitRefused'; message: string } }

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
      const self = ctx.turn.selfWakes?.()
      if (self && self.inRow >= self.max) {
        ctx.turn.wait = null
        return { ok: false, error: { name: 'WaitRefused', message: refusal(self) } }
      }
      ctx.turn.wait = wait
      return { ok: true, wait }
    },
  }
}

/** Model-facing: why no wake-up is set, and what wakes it now. */
function refusal(self: { inRow: number; max: number }): string {
  const turns = `${self.inRow} turn${self.inRow === 1 ? '' : 's'} in a row started without anyone writing`
  return `no wake-up set: ${turns}, and ${self.max} is the most allowed. You wake again when someone writes to you; the turn ends now.`
}
