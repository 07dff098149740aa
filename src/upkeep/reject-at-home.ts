// A reject from the console for a runtime that cannot start (its bot is not connected, SPEC §26):
// recorded in its home's book as its running upkeep would, since a reject writes no note. A book
// that cannot be read is reported and left as it was, not set aside.
import type { Logger } from '../util/logger'
import { proposalsAtHome } from './at-home'
import { BookNotWritten, ProposalBook } from './proposal-book'
import type { DecideResult } from './upkeep'

export async function rejectAtHome(home: string, id: string, by: string, now: number, logger: Logger): Promise<DecideResult> {
  try {
    await proposalsAtHome(home)
  } catch (e: any) {
    return { ok: false, error: { name: 'NotStored', message: e.message } }
  }
  const book = new ProposalBook(home, logger)
  try {
    await book.load(now)
    const p = book.get(id)
    if (!p) return { ok: false, error: { name: 'NotFound', message: `there is no proposal ${id}` } }
    if (p.state !== 'pending') return { ok: false, error: { name: 'Decided', message: `proposal ${id} is ${p.state} already` } }
    return { ok: true, proposal: await book.update(id, { state: 'rejected', decided: { at: now, by } }) }
  } catch (e: any) {
    if (e instanceof BookNotWritten) return { ok: false, error: { name: 'NotStored', message: e.message } }
    throw e
  } finally {
    await book.stop()
  }
}
