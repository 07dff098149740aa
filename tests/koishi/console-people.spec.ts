// The console's people view (SPEC §21): the listener the page calls lists a runtime's people with
// their notes, private sections marked, odd ids decoded, notes bounded.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'koishi'
import { registerPeople } from '../../src/koishi/console/people'
import { CONSOLE_NOTE_CHARS } from '../../src/console-data/people'
import { personRel } from '../../src/people/people-path'
import { runtimeHome } from '../../src/runtime/runtime'
import { Harness } from '../support/harness'
import { captureListeners } from '../support/console-listeners'

describe('console: the people view', function () {
  this.timeout(15000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  const BOT = 'mock:514'
  const listener = (h: Harness) => captureListeners(h.app, registerPeople).got.get('kotodama/people')!

  it('lists the people with their notes, private sections marked', async () => {
    h = await Harness.start()
    const local = join(runtimeHome(h.dataDir, 'neko', BOT), 'local')
    await mkdir(join(local, 'memory', 'people', 'mock'), { recursive: true })
    await writeFile(join(local, personRel('mock', 'bob')), 'Bob: likes jazz')
    await writeFile(join(local, personRel('mock', 'bob', true)), 'a surprise for alice')
    await writeFile(join(local, personRel('mock', '../x')), 'x'.repeat(CONSOLE_NOTE_CHARS * 2))
    await writeFile(join(local, 'memory', 'people', 'loose.md'), 'not a person note')
    const l = listener(h)
    expect(l.authority).to.equal(4)
    const view = await l.fn('neko', BOT)
    expect(view.enabled).to.equal(true)
    expect(view.people.map((p: any) => p.id)).to.deep.equal(['../x', 'bob'])
    const [odd, bob] = view.people
    expect(bob.shared).to.deep.include({ url: 'local://memory/people/mock/bob.md', text: 'Bob: likes jazz', cut: false })
    expect(bob.private).to.deep.include({ url: 'local://memory/people/mock/bob.private.md', text: 'a surprise for alice' })
    expect(odd.shared.url).to.equal('local://memory/people/mock/%252E%252E%252Fx.md')
    expect(odd.shared.text.length).to.equal(CONSOLE_NOTE_CHARS)
    expect(odd.shared.cut).to.equal(true)
    expect(odd.private).to.equal(undefined)
  })
})
