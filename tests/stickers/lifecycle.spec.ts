// The stickers part's lifecycle (issue 37 defect 1): made, it reads nothing (a reload's old runtime
// may still be writing); started (the runtime holds its home), it has looked at its folder, so an
// inbound sticker is recognised before any turn.
import { expect } from 'chai'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stickersPart } from '../../src/stickers/part'
import { idle } from '../support/app-waits'
import { partScope } from '../support/part-scope'
import { tinyPng } from '../support/tiny-png'

describe('stickers: the part\'s lifecycle', () => {
  let home: string
  beforeEach(async () => { home = await mkdtemp(join(tmpdir(), 'kotodama-stickers-part-')) })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('made, it reads nothing; started, its library holds the folder\'s stickers', async () => {
    const dir = join(home, 'local', 'stickers')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'happy-cat.png'), tinyPng(1))
    const part = stickersPart.create(partScope(stickersPart, home, { enabled: true }))!
    await idle(50)
    expect(part.library.list(), 'nothing read before start').to.deep.equal([])
    await part.start!()
    expect(part.library.list().map(s => s.name)).to.deep.equal(['happy-cat'])
    await part.stop!()
  })

  it('off: nothing is made', () => {
    expect(stickersPart.create(partScope(stickersPart, home))).to.equal(undefined)
  })
})
