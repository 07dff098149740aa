// A reject from the console for a runtime that cannot start (its bot is not connected, SPEC §26):
// recorded in its home's book as its running upkeep would, since a reject writes no note. A book
// that cannot be read is reported and left as it was, not set aside.
import type { Logger } from '../util/logger'
import { proposalsAtHome } from './at-home'
import { ProposalBook } from './proposal-book'
import { decideIn, type DecideResult } from './decision'

export async function rejectAtHome(home: string, id: string, by: string, now: number, logger: Logger): Promise<DecideResult> {
  try {
    await proposalsAtHome(home)
  } catch (e: any) {
    return { ok: false, error: { name: 'NotStored', message: e.message } }
  }
  const book = new ProposalBook(home, logger)
  try {
    await book.load(now)
    return await decideIn(book, id, 'reject', { by, now, accept: () => { throw new Error('a stopped runtime applies nothing') } })
  } finally {
    await book.stop()
  }
}
