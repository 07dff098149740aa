// Which stored conversations a start or a reconnect pulls (SPEC §19, issue 37): those whose history
// changed since a time. On storage: files the file's last change, on storage: database the newest
// live row's time (the table tells no time without reading); a conversation with nothing to read counts.
import { expect } from 'chai'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { activeSince } from '../../src/history/active-since'
import { filesSide, tableSide } from '../../src/history/sides'
import type { HistoryRow, HistoryTable } from '../../src/history/table'
import type { Logger } from '../../src/util/logger'
import { safeName } from '../../src/util/safe-name'

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
const HOUR = 3_600_000
const NOW = Date.now()

const entry = (at: number, channel: string) =>
  JSON.stringify({ type: 'fact', at, fact: { id: `m${at}`, at, bot: 'test:1', channel, direct: false, user: { id: 'u', name: 'u' }, content: 'hi' } })

/** A table holding `rows` per conversation of one (profile, bot); only what the side reads of it. */
function tableOf(rows: Record<string, HistoryRow[]>): HistoryTable {
  const newest = async (ref: { conversation: string }, limit?: number) =>
    [...rows[ref.conversation] ?? []].sort((a, b) => b.seq - a.seq).slice(0, limit)
  return {
    name: 'test', newest, conversations: async () => Object.keys(rows),
    write: async () => {}, lastSeq: async () => 0, setAside: async () => 0, runtimes: async () => [],
  }
}

describe('history: the conversations active since a time (a reconnect pulls these)', () => {
  let dir: string
  afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }) })

  it('storage: files: by the file\'s last change', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-active-'))
    const conversations = join(dir, 'conversations')
    await mkdir(conversations)
    for (const [key, changed] of [['group:recent', NOW - HOUR], ['group:old', NOW - 48 * HOUR], ['private:bob', NOW - 23 * HOUR]] as const) {
      const file = join(conversations, `${safeName(key)}.jsonl`)
      await writeFile(file, entry(changed, key) + '\n')
      await utimes(file, changed / 1000, changed / 1000)
    }
    const side = filesSide(conversations, quiet)
    expect((await activeSince(side, NOW - 24 * HOUR)).sort()).to.deep.equal(['group:recent', 'private:bob'])
    expect(await activeSince(side, NOW - 2 * HOUR)).to.deep.equal(['group:recent'])
  })

  it('storage: database: by the newest live row\'s time', async () => {
    const row = (seq: number, at: number, key: string): HistoryRow => ({ seq, at, entry: entry(at, key) })
    const table = tableOf({
      'group:recent': [row(1, NOW - 72 * HOUR, 'group:recent'), row(2, NOW - HOUR, 'group:recent')],
      'group:old': [row(1, NOW - 72 * HOUR, 'group:old'), row(2, NOW - 30 * HOUR, 'group:old')],
      'group:empty': [],
    })
    const side = tableSide(table, 'p', 'test:1', quiet)
    expect((await activeSince(side, NOW - 24 * HOUR)).sort()).to.deep.equal(['group:empty', 'group:recent'])
  })
})
