// A change upkeep proposes to the mind's notes (SPEC §26): one of `write`'s forms on a local://memory/
// URL, its reason, the messages it rests on, and what became of it.
import { createHash } from 'node:crypto'
import type { TurnChat } from '../contract/tool'
import type { WriteRequest } from '../resources/types'

export type ProposalState = 'pending' | 'applying' | 'applied' | 'rejected' | 'failed'

/** Who wrote a message a proposal rests on (the mind's own messages are not anyone's claim). */
export interface SourceAuthor {
  id: string
  name: string
}

export interface Proposal {
  /** short, for the command and the console: u1, u2, … in the order they were made */
  id: string
  /** the conversation whose messages it rests on */
  conversation: string
  /** the chat of the run (what it may see and where a write goes: a private chat's private section) */
  chat?: TurnChat
  /** when it was proposed (ms) */
  at: number
  url: string
  change: WriteRequest
  reason: string
  /** history:// URLs of this conversation's messages */
  sources: string[]
  authors: SourceAuthor[]
  state: ProposalState
  /** accepted or rejected: when and by whom ('auto', 'console', 'command:<platform:id>') */
  decided?: { at: number; by: string }
  /** why applying it failed: the write's code and its own words */
  error?: { code: string; message: string }
  /** the same change proposed again has the same key (url and change) */
  key: string
}

/** The key of a change: a model that proposes it again, in this run or a later one, is told it is a duplicate. */
export function changeKey(url: string, change: WriteRequest): string {
  return createHash('sha256').update(JSON.stringify([url, change])).digest('hex').slice(0, 32)
}

/** Oldest first; proposals of one moment in the order they were made (u1, u2, …). */
export const byAge = (a: Proposal, b: Proposal) => a.at - b.at || Number(a.id.slice(1)) - Number(b.id.slice(1))

/** States a change may not be proposed again in (a failed one may: its note changed since). */
export const TAKEN: ReadonlySet<ProposalState> = new Set(['pending', 'applying', 'applied', 'rejected'])
