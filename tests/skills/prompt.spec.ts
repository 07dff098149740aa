// The skills section of the system prompt (SPEC §24, §16) with 50 skills, through the real plugin:
// two turns send byte-identical system prompts (the prompt cache holds), one line a skill, sorted,
// each description one clipped line; and the section's config checks report bad fields by path.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { messagesOf } from '../support/fake-openai'
import { checkConfig, configSchema } from '../../src/runtime/config-of-parts'
import { clipDescription, DESCRIPTION_UNITS } from '../../src/skills/section'
import { writeManySkills, writeSkill } from './skill-folders'

describe('skills: the prompt section (SPEC §24)', function () {
  this.timeout(30_000)
  let h: Harness | undefined
  let root: string
  beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'kotodama-skills-prompt-')) })
  afterEach(async () => {
    await h?.stop()
    h = undefined
    await rm(root, { recursive: true, force: true })
  })

  it('is byte-identical across two turns with 50 skills, one sorted line each', async () => {
    await writeManySkills(join(root, 'one'), 50)
    // a second folder: its skills sort among the first's; a name already loaded is left out
    await writeSkill(join(root, 'two'), 'aaa-long', { name: 'aaa-long', description: `${'word '.repeat(60)}end` })
    await writeSkill(join(root, 'two'), 'skill-03', { name: 'skill-03', description: 'A second skill-03.' })
    h = await Harness.start({ profile: { skills: { dirs: [join(root, 'one'), join(root, 'two')] } } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('first')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.client('bob').receive('second')
    await h.server.waitForRequests(2)
    await h.settled()
    const [a, b] = h.server.requests.map(r => messagesOf(r)[0].content as string)
    expect(messagesOf(h.server.requests[1]).length).to.be.greaterThan(messagesOf(h.server.requests[0]).length)
    expect(b).to.equal(a)
    const lines = a.slice(a.indexOf('## Skills')).split('\n\n')[0].split('\n').filter(l => l.startsWith('- '))
    expect(lines).to.have.length(51)
    expect(lines.map(l => l.slice(2, l.indexOf(':')))).to.deep.equal(['aaa-long', ...Array.from({ length: 50 }, (_, i) => `skill-${String(i).padStart(2, '0')}`)])
    expect(lines[0]).to.equal(`- aaa-long: ${'word '.repeat(16).trim()}…`)
    expect(lines[4]).to.include('- skill-03: Use when a member asks for task number 3')
    expect(h.warnings().filter(w => w.includes('left out'))).to.deep.equal([
      `skill ${join(root, 'two', 'skill-03', 'SKILL.md')} left out: a skill named skill-03 was already loaded from ${join(root, 'one', 'skill-03', 'SKILL.md')}`,
    ])
  })

  it('clips a description to one line of bounded width, a wide character counting more', () => {
    expect(clipDescription('a\n  b\tc')).to.equal('a b c')
    expect(clipDescription('x'.repeat(DESCRIPTION_UNITS))).to.equal('x'.repeat(DESCRIPTION_UNITS))
    expect(clipDescription('x'.repeat(DESCRIPTION_UNITS + 1))).to.equal('x'.repeat(DESCRIPTION_UNITS - 1) + '…')
    expect(clipDescription('天'.repeat(40))).to.equal('天'.repeat(26) + '…')
  })

  it('a bad dirs or allow is reported with its path and falls back; the profile starts', () => {
    const checked = checkConfig(configSchema({
      models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
      profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], skills: { dirs: ['/srv/skills', ' '], allow: [''] } }],
    } as any))
    expect(checked.profiles.map(p => p.id)).to.deep.equal(['neko'])
    expect(checked.problems.map(p => [p.path, p.message])).to.deep.equal([
      ['profiles[0].skills.dirs', 'must be a list of folder paths; using the default []'],
      ['profiles[0].skills.allow', `must be a list of skill names or '*'; using the default ["*"]`],
    ])
  })
})
