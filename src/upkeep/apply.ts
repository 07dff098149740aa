// Applying an accepted change (SPEC §26) as write would make it, with the scope of the chat it came
// from (a private chat's change goes to that person's private section). The book says `applying`
// before the write and `applied` after it: a crash between the two leaves `applying`, and the next
// start looks at the file — a change already there is recorded applied, never made twice.
import type { TurnChat } from '../contract/tool'
import { personRel } from '../people/people-path'
import type { ReadScope, WriteRequest, WriteResult } from '../resources/types'
import { memoryRel } from './placement'
import type { Proposal } from './proposal'
import type { ProposalBook } from './proposal-book'

export interface ApplyDeps {
  book: ProposalBook
  platform: string
  now(): number
  write(url: string, change: WriteRequest, scope: ReadScope): Promise<WriteResult>
  /** the text of the file at `rel` under local/, undefined when there is none */
  textOf(rel: string): Promise<string | undefined>
  /** a test's seam: runs after the write, before the book records it (a crash there) */
  written?(p: Proposal): Promise<void>
}

const scopeOf = (p: Proposal): ReadScope => ({ conversation: p.conversation, ...p.chat ? { chat: p.chat } : {} })

/** Applies a proposal (pending, failed, or already recorded as applying); the proposal as it ends. */
export async function applyProposal(d: ApplyDeps, p: Proposal, by: string): Promise<Proposal> {
  const decided = p.decided ?? { at: d.now(), by }
  if (p.state !== 'applying') p = await d.book.update(p.id, { state: 'applying', decided })
  const failed = (e: any): WriteResult => ({ ok: false, error: { code: 'write_failed', message: String(e?.message ?? e) } })
  const result = await d.write(p.url, p.change, scopeOf(p)).catch(failed)
  await d.written?.(p)
  if ('error' in result) return d.book.update(p.id, { state: 'failed', decided, error: { code: result.error.code, message: result.error.message } })
  return d.book.update(p.id, { state: 'applied', decided })
}

/** A proposal a crash left `applying`: recorded applied when its change is in the file, else applied now. */
export async function recoverProposal(d: ApplyDeps, p: Proposal): Promise<Proposal> {
  if (await madeAlready(d, p)) return d.book.update(p.id, { state: 'applied' })
  return applyProposal(d, p, p.decided?.by ?? 'auto')
}

/** Where the write went: in a private chat, that person's note is its private section. */
export function targetRel(rel: string, chat: TurnChat | undefined, platform: string): string {
  return chat?.direct && chat.user !== undefined && rel === personRel(platform, chat.user) ? personRel(platform, chat.user, true) : rel
}

async function madeAlready(d: ApplyDeps, p: Proposal): Promise<boolean> {
  const rel = memoryRel(p.url)
  if (rel === undefined) return false
  const text = await d.textOf(targetRel(rel, p.chat, d.platform))
  const c = p.change
  if ('content' in c) return text === c.content
  if ('append' in c) return text !== undefined && text.endsWith(c.append)
  if ('edit' in c) return text !== undefined && !text.includes(c.edit.find) && (c.edit.replace === '' || text.includes(c.edit.replace))
  if ('remove' in c) return text === undefined
  const to = memoryRel(c.moveTo)
  return text === undefined && to !== undefined && await d.textOf(to) !== undefined
}
