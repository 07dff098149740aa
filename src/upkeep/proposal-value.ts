// A proposal as read back from upkeep/proposals.json: checked field by field, a bad one left out
// (the file is the runtime's own; a hand edit gone wrong costs that proposal, not the others).
import type { WriteRequest } from '../resources/types'
import type { Proposal, ProposalState, SourceAuthor } from './proposal'

const STATES: readonly ProposalState[] = ['pending', 'applying', 'applied', 'rejected', 'failed']

const str = (v: unknown): v is string => typeof v === 'string'

function changeValue(c: any): WriteRequest | undefined {
  if (!c || typeof c !== 'object') return undefined
  if (str(c.content)) return { content: c.content }
  if (str(c.append)) return { append: c.append }
  if (c.edit && str(c.edit.find) && str(c.edit.replace)) return { edit: { find: c.edit.find, replace: c.edit.replace } }
  if (c.remove === true) return { remove: true }
  return str(c.moveTo) ? { moveTo: c.moveTo } : undefined
}

export function proposalValue(v: any): Proposal | undefined {
  if (!v || typeof v !== 'object' || !str(v.id) || !str(v.conversation) || !str(v.url) || !str(v.reason) || !str(v.key)) return undefined
  const change = changeValue(v.change)
  if (!change || typeof v.at !== 'number' || !STATES.includes(v.state)) return undefined
  if (!Array.isArray(v.sources) || !v.sources.every(str) || !Array.isArray(v.authors)) return undefined
  const authors: SourceAuthor[] = v.authors.filter((a: any) => a && str(a.id) && str(a.name)).map((a: any) => ({ id: a.id, name: a.name }))
  const p: Proposal = {
    id: v.id, conversation: v.conversation, at: v.at, url: v.url, change, reason: v.reason, sources: v.sources, authors, state: v.state, key: v.key,
  }
  const chat = v.chat
  if (chat && str(chat.channel) && typeof chat.direct === 'boolean') {
    p.chat = { channel: chat.channel, direct: chat.direct, ...str(chat.user) ? { user: chat.user } : {} }
  }
  if (v.decided && typeof v.decided.at === 'number' && str(v.decided.by)) p.decided = { at: v.decided.at, by: v.decided.by }
  if (v.error && str(v.error.code) && str(v.error.message)) p.error = { code: v.error.code, message: v.error.message }
  return p
}
