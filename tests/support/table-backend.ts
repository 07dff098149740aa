// The history suite's view of the database backend: the real Koishi/minato table adapter, behind
// a switch that makes writes fail the way a lost connection does.
import type { App } from 'koishi'
import { HISTORY_TABLE, koishiHistoryTable } from '../../src/koishi/history-table'
import type { HistoryTable } from '../../src/history/table'
import { tableSide } from '../../src/history/sides'
import type { BackendUnderTest } from './history-suite'
import { quiet } from './history-suite'

let runs = 0

/** A backend over `app`'s database; each call uses its own profile, so tests sharing a database stay apart. */
export function tableBackend(app: App, onClose: () => Promise<void> = async () => {}): BackendUnderTest {
  const profile = `suite-${process.pid}-${++runs}`
  const bot = 'test:1'
  const inner = koishiHistoryTable(app)
  let broken = false
  const table: HistoryTable = {
    ...inner,
    name: inner.name,
    write: (ref, rows) => broken ? Promise.reject(new Error('connection lost')) : inner.write(ref, rows),
  }
  return {
    open: (key, logger = quiet) => tableSide(table, profile, bot, logger).open(key),
    async plant(key, texts) {
      const ref = { profile, bot, conversation: key }
      const last = await inner.lastSeq(ref)
      await inner.write(ref, texts.map((entry, i) => ({ seq: last + 1 + i, at: 0, entry })))
      return texts.map((_, i) => `table ${HISTORY_TABLE}, conversation ${key} of profile ${profile} on ${bot}, seq ${last + 1 + i}:`)
    },
    async aside(key) {
      return (await app.database.get(HISTORY_TABLE, { profile, bot, conversation: key, aside: { $gt: 0 } }, ['seq'])).length
    },
    breakWrites: v => { broken = v },
    close: onClose,
  }
}
