// SPEC §10: a short or failed append is repaired before the next one; the entry is kept in memory
// and written again. The disk is a real 256 KiB tmpfs (mounting needs root; skipped otherwise).
import { expect } from 'chai'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { HistoryStore } from '../../src/history/file-store'
import type { Entry } from '../../src/history/entries'
import { Harness, call } from '../support/harness'
import { lastUserText } from '../support/fake-openai'
import { fill, mountTmpfs, unmount } from '../support/faults'

const quiet = { debug() {}, info() {}, warn() {}, error() {} }

const note = (i: number, size = 6000): Entry => ({ type: 'note', at: i, kind: 'info', text: `${i}:` + 'x'.repeat(size) })

describe('faults: a full disk', function () {
  let dir: string | undefined
  afterEach(async () => { await unmount(dir); dir = undefined })

  it('a short write is cut back, the entries are kept and written again in order once there is room', async function () {
    dir = await mountTmpfs(this)
    const path = join(dir, 'c.jsonl')
    const store = new HistoryStore(path, quiet)
    await store.append([note(0)])
    // the file's last page has about 2 KB left, and the disk nothing: the next line is written short
    const filler = await fill(dir, 0)
    // the first fits partly at most: the write is short or fails
    await store.append([note(1)]).catch(() => {})
    await store.append([note(2)]).catch(() => {})
    expect(store.unwritten).to.be.greaterThan(0)
    const during = (await readFile(path, 'utf8')).split('\n').filter(Boolean)
    for (const line of during) JSON.parse(line)   // no fragment, no glued lines
    expect(during.map(l => JSON.parse(l).at)).to.deep.equal([0])
    await rm(filler)
    await store.append([note(3)])
    expect(store.unwritten).to.equal(0)
    await store.flushed()
    const after = (await readFile(path, 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l))
    expect(after.map(e => e.at)).to.deep.equal([0, 1, 2, 3])
    const reloaded = await new HistoryStore(path, quiet).load()
    expect(reloaded.map(e => e.at)).to.deep.equal([0, 1, 2, 3])
  })

  it('the plugin keeps answering while the disk is full and stores every fact once there is room', async function () {
    dir = await mountTmpfs(this, '1m')
    const h = await Harness.start({ dataDir: dir })
    try {
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const bob = h.client('bob')
      await bob.receive('first, with room')
      await h.server.waitForRequests(1)
      await h.settled()
      const filler = await fill(dir, 0)
      await bob.receive('second, disk full ' + 'y'.repeat(3000))
      await h.server.waitForRequests(2)
      await h.settled()
      // the mind still saw it
      expect(lastUserText(h.server.requests[1])).to.include('second, disk full')
      expect(h.warnings().join('\n')).to.match(/could not write the history \(ENOSPC\)/)
      await rm(filler)
      await bob.receive('third, room again')
      await h.server.waitForRequests(3)
      await h.settled()
      const home = (await h.app.kotodama.list())[0].home
      await h.reload()
      const lines = (await readFile(join(home, 'conversations', 'private%3Abob.jsonl'), 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l))
      const facts = lines.filter(e => e.type === 'fact').map(e => e.fact.content.slice(0, 12))
      expect(facts).to.deep.equal(['first, with ', 'second, disk', 'third, room '])
    } finally {
      await h.stop()
    }
  })
})
