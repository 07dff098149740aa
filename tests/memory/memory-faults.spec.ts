// SPEC §13 under faults: a full disk refuses a write without changing anything (the old file
// whole, no temporary file, the counts unchanged), and a write whose call was aborted while it
// waited in the queue is not made; a removal the trash cannot keep is refused (SPEC §22). The disk
// is a real 256 KiB tmpfs (mounting needs root).
import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_MEMORY } from '../../src/memory/config'
import { Memory } from '../../src/memory/memory'
import { TextCache } from '../../src/resources/text'
import { mountTmpfs, unmount } from '../support/faults'

describe('faults: memory writes', function () {
  let dir: string | undefined
  afterEach(async () => {
    await unmount(dir)
    dir = undefined
  })

  it('a full disk: write_failed, the old note whole, no temporary file, the counts unchanged; then it works again', async function () {
    dir = await mountTmpfs(this)
    const local = join(dir, 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
    const memory = new Memory({ root: local, config: DEFAULT_MEMORY, texts: new TextCache() })
    expect((await memory.write('local://memory/core.md', { content: 'keep me\n' })).ok).to.equal(true)
    const before = await memory.stats()
    const s = await statfs(dir)
    const filler = join(dir, 'filler')
    await writeFile(filler, Buffer.alloc(s.bavail * s.bsize))
    const full = await memory.write('local://memory/core.md', { append: 'x'.repeat(64 << 10) })
    expect(full.ok).to.equal(false)
    expect((full as any).error.code).to.equal('write_failed')
    expect((full as any).error.message).to.equal('local://memory/core.md: cannot be written (ENOSPC)')
    expect(await readFile(join(local, 'memory', 'core.md'), 'utf8')).to.equal('keep me\n')
    expect(await readdir(join(local, 'memory'))).to.deep.equal(['core.md'])
    // the folders a refused write was about to create are gone again
    const deep = await memory.write('local://memory/a/b/c.md', { content: 'x'.repeat(64 << 10) })
    expect((deep as any).error.code).to.equal('write_failed')
    expect(await readdir(join(local, 'memory'))).to.deep.equal(['core.md'])
    expect(await memory.stats()).to.deep.equal(before)
    await rm(filler)
    expect(await memory.write('local://memory/core.md', { append: 'and me\n' })).to.deep.equal({ ok: true, url: 'local://memory/core.md', bytes: 15, lines: 2 })
    expect(memory.section()).to.include('(pinned, 15 bytes)\nkeep me\nand me')
  })

  it('a full disk: a removal or overwrite whose old bytes the trash cannot keep is refused; the note whole (SPEC §22)', async function () {
    dir = await mountTmpfs(this)
    const local = join(dir, 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
    const memory = new Memory({ root: local, config: DEFAULT_MEMORY, texts: new TextCache() })
    const note = 'n'.repeat(32 << 10)
    expect((await memory.write('local://memory/core.md', { content: note })).ok).to.equal(true)
    const s = await statfs(dir)
    const filler = join(dir, 'filler')
    await writeFile(filler, Buffer.alloc(s.bavail * s.bsize))
    for (const request of [{ remove: true as const }, { content: 'short' }]) {
      const refused = await memory.write('local://memory/core.md', request)
      expect(refused).to.deep.equal({
        ok: false, error: { code: 'write_failed', message: 'local://memory/core.md: not changed: its old version could not be kept in the trash (ENOSPC)' },
      })
      expect(await readFile(join(local, 'memory', 'core.md'), 'utf8')).to.equal(note)
    }
    // nothing half-kept is left in the trash
    expect(await memory.trash()).to.deep.equal([])
    await rm(filler)
    expect((await memory.write('local://memory/core.md', { remove: true })).ok).to.equal(true)
    const [kept] = await memory.trash()
    expect(await readFile(memory.keeper.trash.pathOf(kept), 'utf8')).to.equal(note)
  })

  it('a write whose call was aborted while queued is not made', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-memory-'))
    const local = join(dir, 'local')
    await mkdir(local, { recursive: true })
    const memory = new Memory({ root: local, config: DEFAULT_MEMORY, texts: new TextCache() })
    const abort = new AbortController()
    const first = memory.write('local://a.md', { content: 'first' })
    const second = memory.write('local://a.md', { append: ' second' }, { signal: abort.signal })
    abort.abort(new Error('the program ended'))
    expect((await first).ok).to.equal(true)
    const refused = await second
    expect(refused.ok).to.equal(false)
    expect((refused as any).error.code).to.equal('write_failed')
    expect(await readFile(join(local, 'a.md'), 'utf8')).to.equal('first')
  })
})
