// The history table on Koishi's database service (storage: database; docs/storage.md): minato's
// `ctx.model.extend`, so any minato driver serves it (memory, SQLite, MySQL/MariaDB). The only
// file that touches `ctx.model`/`ctx.database`. The model is declared on first use, so an
// instance on storage: files creates no table until a migration needs it.
import type { Context } from 'koishi'
import type { ConversationRef, HistoryRow, HistoryTable } from '../history/table'

export const HISTORY_TABLE = 'kotodama_history'

export interface HistoryRecord {
  profile: string
  bot: string
  conversation: string
  seq: number
  at: number
  /** 0 for a live row; the time (ms) it was set aside by a reset or a migration */
  aside: number
  entry: string
}

declare module 'koishi' {
  interface Tables {
    kotodama_history: HistoryRecord
  }
}

export function koishiHistoryTable(ctx: Context): HistoryTable {
  let declared = false
  const db = () => {
    if (!declared) {
      declared = true
      ctx.model.extend(HISTORY_TABLE, {
        profile: { type: 'string', length: 100 },
        bot: { type: 'string', length: 150 },
        conversation: { type: 'string', length: 255 },
        seq: 'unsigned',
        at: 'double',
        aside: { type: 'double', initial: 0 },
        // more than 64 KiB: MySQL's `text` would cut long steps (becomes longtext)
        entry: { type: 'text', length: 0xffffffff },
      }, { primary: ['profile', 'bot', 'conversation', 'seq'] })
    }
    return ctx.database
  }
  const where = (ref: ConversationRef) => ({ profile: ref.profile, bot: ref.bot, conversation: ref.conversation, aside: 0 })
  return {
    name: HISTORY_TABLE,
    async write(ref, rows) {
      const records = rows.map(r => ({ ...ref, seq: r.seq, at: r.at, aside: 0, entry: r.entry }))
      const database = db()
      await database.withTransaction(async t => { await t.upsert(HISTORY_TABLE, records) })
    },
    async newest(ref, limit) {
      const rows = await db().get(HISTORY_TABLE, where(ref), {
        fields: ['seq', 'at', 'entry'], sort: { seq: 'desc' }, ...(limit !== undefined ? { limit } : {}),
      })
      return rows.map((r): HistoryRow => ({ seq: r.seq, at: r.at, entry: r.entry }))
    },
    async after(ref, seq, limit) {
      const rows = await db().get(HISTORY_TABLE, { ...where(ref), seq: { $gt: seq } }, { fields: ['seq', 'at', 'entry'], sort: { seq: 'asc' }, limit })
      return rows.map((r): HistoryRow => ({ seq: r.seq, at: r.at, entry: r.entry }))
    },
    async lastSeq(ref) {
      const one = { profile: ref.profile, bot: ref.bot, conversation: ref.conversation }
      const [row] = await db().get(HISTORY_TABLE, one, { fields: ['seq'], sort: { seq: 'desc' }, limit: 1 })
      return row?.seq ?? 0
    },
    async setAside(ref, at) {
      const database = db()
      let moved = 0
      await database.withTransaction(async t => {
        moved = (await t.get(HISTORY_TABLE, where(ref), ['seq'])).length
        if (moved) await t.set(HISTORY_TABLE, where(ref), { aside: at })
      })
      return moved
    },
    async conversations(profile, bot) {
      // distinct in JS: a migration runs rarely, and not every driver groups alike
      const rows = await db().get(HISTORY_TABLE, { profile, bot, aside: 0 }, ['conversation'])
      return [...new Set(rows.map(r => r.conversation))]
    },
    async runtimes() {
      // One query per runtime, each the next (profile, bot) along the primary key: the console asks
      // on every refresh of its list, so no conversation's rows are read. (minato's groupBy would be
      // one query, but @minatojs/driver-mysql 3.3, which the tests run on MariaDB, fails on it.)
      const found: { profile: string; bot: string }[] = []
      for (let last: { profile: string; bot: string } | undefined; ;) {
        const after = last ? { $or: [{ profile: { $gt: last.profile } }, { profile: last.profile, bot: { $gt: last.bot } }] } : {}
        const [row] = await db().get(HISTORY_TABLE, { aside: 0, ...after }, { fields: ['profile', 'bot'], sort: { profile: 'asc', bot: 'asc' }, limit: 1 })
        if (!row) return found
        found.push(last = { profile: row.profile, bot: row.bot })
      }
    },
  }
}
