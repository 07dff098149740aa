// search — find what was said in the conversation and in the mind's notes (SPEC §17). The tool
// knows only its port; the runtime's recall (src/recall/) implements it.
import { z } from 'zod'
import { turnScope } from '../contract/turn-scope'
import type { ReadScope } from '../resources/types'
import type { Tool } from '../contract/tool'
import DESCRIPTION from './search.txt'

export interface SearchHit {
  /** history://<conversation>/<message id> for a message, local://memory/…:N for a line of a note */
  url: string
  /** the platform message id; null for a note */
  id: string | null
  /** 'YYYY-MM-DD HH:MM' in budgets.timezone, as lines show times: when it was said (a note: when it last changed) */
  at: string
  /** who said it; null for a note */
  who: string | null
  text: string
}

export interface SearchResult {
  hits: SearchHit[]
}

/** What the tool needs: a search from the conversation whose turn calls it (`scope`: its chat, which notes it finds: SPEC §22). */
export interface SearchPort {
  /** `paid`: ToolCallContext.paid, asked before the query is embedded (SPEC §22) */
  search(
    conversation: string | undefined, query: string, limit: number, signal?: AbortSignal, scope?: ReadScope, paid?: (what: string) => void,
  ): Promise<SearchResult>
}

const RESULT_TYPE = `{ hits: { url: string, id: string | null, at: string, who: string | null, text: string }[] }`

export const DEFAULT_LIMIT = 10

// limit is nullish: strict function-calling setups fill fields they do not use with null
const inputSchema = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(50).nullish(),
})

export type SearchInput = z.infer<typeof inputSchema>

export function searchTool(port: SearchPort): Tool<SearchInput, SearchResult> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema: inputSchema as unknown as z.ZodType<SearchInput>,
    execute: (input, ctx) => port.search(ctx.turn.conversation, input.query, input.limit ?? DEFAULT_LIMIT, ctx.signal, turnScope(ctx.turn), ctx.paid),
    program: { output: RESULT_TYPE },
  }
}
