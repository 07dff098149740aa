// finish — end the turn without saying anything (SPEC §4.4).
import { z } from 'zod'
import type { Tool } from '../contract/tool'
import DESCRIPTION from './finish.txt'

const inputSchema = z.object({
  // only for the logs
  reason: z.string().optional(),
})

export function finishTool(): Tool<z.infer<typeof inputSchema>, { ok: true }> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema,
    execute: async () => ({ ok: true }),
  }
}
