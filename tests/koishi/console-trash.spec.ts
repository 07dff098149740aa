// The console's trash view (SPEC §22): the listeners the page calls list a runtime's trash (what,
// when, size, from which chat) and restore an entry, for a running runtime (through its memory: the
// next request shows the file) and for one that is not running (from its home's files).
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { registerTrash } from '../../src/koishi/console/trash'
import { Trash } from '../../src/memory/trash/trash'
import { PrivateFiles } from '../../src/memory/private-files'
import { DEFAULT_MEMORY } from '../../src/memory/config'
import { systemClock } from '../../src/util/clock'
import { runtimeHome } from '../../src/runtime/runtime'
import { Harness, call } from '../support/harness'
import { captureListeners } from '../support/console-listeners'

describe('console: the trash view', function () {
  this.timeout(15000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  const BOT = 'mock:514'

  it('a running runtime: a removed core.md listed and restored; the next request shows it', async () => {
    h = await Harness.start()
    const local = join(runtimeHome(h.dataDir, 'neko', BOT), 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
    await writeFile(join(local, 'memory', 'core.md'), 'I am Neko.\n')
    h.server.script({ toolCalls: [call('write', { url: 'local://memory/core.md', remove: true })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob', 'room').receive('<at id="514"/> delete your core notes')
    await h.server.waitForRequests(2)
    await h.settled()
    const l = captureListeners(h.app, registerTrash)
    expect(l.got.get('kotodama/trash')!.authority).to.equal(4)
    expect(l.got.get('kotodama/trash-restore')!.authority).to.equal(4)
    const view = await l.send('kotodama/trash', 'neko', BOT)
    expect(view.more).to.equal(0)
    expect(view.items).to.have.length(1)
    expect(view.items[0]).to.include({ url: 'local://memory/core.md', bytes: 11, why: 'removed', conversation: 'group:room' })
    expect(await l.send('kotodama/trash-restore', 'neko', BOT, view.items[0].id)).to.deep.equal({ url: 'local://memory/core.md' })
    expect(await readFile(join(local, 'memory', 'core.md'), 'utf8')).to.equal('I am Neko.\n')
    expect((await l.send('kotodama/trash', 'neko', BOT)).items).to.deep.equal([])
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room').receive('<at id="514"/> who are you?')
    await h.server.waitForRequests(3)
    expect(h.server.requests[2].body.messages[0].content).to.include('### local://memory/core.md (pinned, 11 bytes)\nI am Neko.')
    // an unknown entry says so
    const unknown = await l.send('kotodama/trash-restore', 'neko', BOT, '2026-01-01/1-0').catch((e: Error) => e.message)
    expect(unknown).to.equal('no trash entry 2026-01-01/1-0')
  })

  it('a runtime that is not running: its home\'s trash listed and restored, a private chat\'s file private again', async () => {
    h = await Harness.start()
    const home = runtimeHome(h.dataDir, 'neko', BOT)
    const local = join(home, 'local')
    await mkdir(join(local, 'memory'), { recursive: true })
    const trash = new Trash(join(home, 'trash'), () => DEFAULT_MEMORY, systemClock)
    await trash.keep({ data: Buffer.from('moving to Osaka') }, 15, { rel: 'memory/plans.md', why: 'removed', conversation: 'private:bob', privateTo: 'private:bob' })
    await trash.keep({ data: Buffer.from('old list') }, 8, { rel: 'memory/todo.md', why: 'overwritten', conversation: 'group:room' })
    await writeFile(join(local, 'memory', 'todo.md'), 'new list')
    expect(await h.app.kotodama.list()).to.deep.equal([])
    const l = captureListeners(h.app, registerTrash)
    const view = await l.send('kotodama/trash', 'neko', BOT)
    expect(view.items.map((i: any) => [i.url, i.why, i.privateTo])).to.deep.equal([
      ['local://memory/todo.md', 'overwritten', undefined],
      ['local://memory/plans.md', 'removed', 'private:bob'],
    ])
    expect(await l.send('kotodama/trash-restore', 'neko', BOT, view.items[0].id)).to.deep.equal({ url: 'local://memory/todo.restored.md' })
    expect(await l.send('kotodama/trash-restore', 'neko', BOT, view.items[1].id)).to.deep.equal({ url: 'local://memory/plans.md' })
    expect(await readFile(join(local, 'memory', 'todo.restored.md'), 'utf8')).to.equal('old list')
    expect(await readFile(join(local, 'memory', 'todo.md'), 'utf8')).to.equal('new list')
    expect(new PrivateFiles(home, local).chatOf('memory/plans.md')).to.equal('private:bob')
    expect((await l.send('kotodama/trash', 'neko', BOT)).items).to.deep.equal([])
  })
})
