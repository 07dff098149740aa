// The owner's decision on one proposal (SPEC §26), the same whether the running upkeep takes it or
// the console records a reject in a stopped runtime's home: pending ones may be accepted or
// rejected, a failed one accepted again; anything else is decided already.
import type { Proposal } from './proposal'
import { BookNotWritten, type ProposalBook } from './proposal-book'

export type Decision = 'accept' | 'reject'
export type DecideResult = { ok: true; proposal: Proposal } | { ok: false; error: { name: 'NotFound' | 'Decided' | 'NotStored'; message: string } }

/** Decides proposal `id` of `book`; `accept` applies one (undecided as yet) and says how it ended. */
export async function decideIn(
  book: ProposalBook, id: string, decision: Decision, o: { by: string; now: number; accept(p: Proposal, by: string): Promise<Proposal> },
): Promise<DecideResult> {
  const p = book.get(id)
  if (!p) return { ok: false, error: { name: 'NotFound', message: `there is no proposal ${id}` } }
  if (p.state !== 'pending' && !(p.state === 'failed' && decision === 'accept')) {
    return { ok: false, error: { name: 'Decided', message: `proposal ${id} is ${p.state} already` } }
  }
  try {
    if (decision === 'reject') return { ok: true, proposal: await book.update(id, { state: 'rejected', decided: { at: o.now, by: o.by } }) }
    const { decided: _, ...undecided } = p
    return { ok: true, proposal: await o.accept(undecided, o.by) }
  } catch (e: any) {
    if (e instanceof BookNotWritten) return { ok: false, error: { name: 'NotStored', message: e.message } }
    throw e
  }
}
