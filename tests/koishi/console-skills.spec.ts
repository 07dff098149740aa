// The console's skills view (SPEC §24): the listener the page calls lists what a runtime's profile
// may use (name, description, folder) and what was left out with why; for a running runtime the
// list it loaded at start, for one not running the folders read now. Authority 4.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerSkills } from '../../src/koishi/console/skills'
import { captureListeners } from '../support/console-listeners'
import { Harness, call } from '../support/harness'
import { writeSkill } from '../skills/skill-folders'

const BOT = 'mock:514'

describe('console: the skills view', function () {
  this.timeout(20000)
  let h: Harness | undefined
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kotodama-console-skills-'))
    await writeSkill(root, 'weather', { name: 'weather', description: 'Look up the weather.' })
    await writeSkill(root, 'alpha', { name: 'alpha', description: 'Greets new members.' })
    await writeSkill(root, 'broken', { name: 'broken' })
  })
  afterEach(async () => {
    await h?.stop()
    h = undefined
    await rm(root, { recursive: true, force: true })
  })

  it('lists the allowed skills and those left out with why, as the running runtime loaded them', async () => {
    h = await Harness.start({ profile: { skills: { dirs: [root], allow: ['weather', 'broken'] } } })
    const l = captureListeners(h.app, registerSkills)
    expect(l.got.get('kotodama/skills')!.authority).to.equal(4)
    const before = await l.send('kotodama/skills', 'neko', BOT)
    expect(before.loaded).to.equal(false)
    expect(before.skills.map((s: any) => s.name)).to.deep.equal(['weather'])

    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi')
    await h.server.waitForRequests(1)
    await h.settled()
    // a skill added after the start is not what the mind was shown: the view says what it was
    await writeSkill(root, 'later', { name: 'later', description: 'Added later.' })
    const view = await l.send('kotodama/skills', 'neko', BOT)
    expect(view).to.deep.equal({
      on: true, loaded: true,
      skills: [{ name: 'weather', description: 'Look up the weather.', folder: join(root, 'weather') }],
      left: [
        { file: join(root, 'broken', 'SKILL.md'), why: 'the front matter has no description' },
        { file: join(root, 'alpha', 'SKILL.md'), why: 'not in skills.allow' },
      ],
    })
    expect(h.warnings().filter(w => w.includes('left out'))).to.have.length(1)
  })

  it('says when the profile has no skill folders', async () => {
    h = await Harness.start({})
    const l = captureListeners(h.app, registerSkills)
    expect(await l.send('kotodama/skills', 'neko', BOT)).to.deep.equal({ on: false, loaded: false, skills: [], left: [] })
  })
})
