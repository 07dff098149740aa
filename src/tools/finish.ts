// finish — end the turn without saying anything (SPEC §4.4).
import { z } from 'zod'
import type { Tool } from './types'

const inputSchema = z.object({
  reason: z.string().optional().describe('why you stop (only for the logs)'),
})

export function finishTool(): Tool<z.infer<typeof inputSchema>, { ok: true }> {
  return {
    description: 'End your turn. This is how you stay silent: nothing is sent. Call it when there is nothing (more) to say.',
    inputSchema,
    execute: async () => ({ ok: true }),
  }
}
