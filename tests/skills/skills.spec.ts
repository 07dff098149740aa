// Skills through the real plugin (SPEC §24, issue 42): folders of SKILL.md in skills.dirs listed in
// the system prompt (sorted, skills.allow, broken ones left out with one log line each), read with
// `read` through skill:// (SKILL.md and a file beside it), write refused, no way out of a skill's
// folder (`..`, a symbolic link), and a 5 MB SKILL.md left out.
import { expect } from 'chai'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { lastToolValues, messagesOf } from '../support/fake-openai'
import { writeSkill } from './skill-folders'

describe('skills: listed, read through skill://, contained (SPEC §24)', function () {
  this.timeout(30_000)
  let h: Harness
  let root: string
  let outside: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kotodama-skills-'))
    outside = await mkdtemp(join(tmpdir(), 'kotodama-outside-'))
    await writeFile(join(outside, 'secret.txt'), 'the owner password')
    await writeSkill(root, 'weather', {
      name: 'weather', description: 'Look up the weather for a city and answer in one line.',
      files: { 'notes.txt': 'Use metric units.\n' },
    })
    // OpenClaw's shape: a folded description, a nested metadata map
    await writeSkill(root, 'alpha', { raw: '---\nname: alpha\ndescription: >\n  Greets   new\n  members\nmetadata:\n  openclaw: {"emoji": "👋"}\n---\nSay hello.\n' })
    await writeSkill(root, 'linked', { name: 'linked', description: 'Holds a link out of its folder.' })
    await symlink(join(outside, 'secret.txt'), join(root, 'linked', 'secret.txt'))
    await writeSkill(root, 'broken', { name: 'broken' })
    await writeSkill(root, 'evil', { name: '../../etc', description: 'Tries to leave.' })
    await writeSkill(root, 'huge', { name: 'huge', description: 'Far too long.', body: 'x'.repeat(5 * 1024 * 1024) })
    await writeSkill(root, 'escape', { name: 'escape', description: 'Its SKILL.md is a link.' })
    await rm(join(root, 'escape', 'SKILL.md'))
    await writeFile(join(outside, 'SKILL.md'), '---\nname: escape\ndescription: from outside\n---\n')
    await symlink(join(outside, 'SKILL.md'), join(root, 'escape', 'SKILL.md'))
  })
  afterEach(async () => {
    await h?.stop()
    await rm(root, { recursive: true, force: true })
    await rm(outside, { recursive: true, force: true })
  })

  const start = async (skills: any, profile: any = {}) => {
    h = await Harness.start({ profile: { skills, ...profile } })
  }

  /** One turn: the model makes `calls`, then finishes; returns the request that read their results. */
  async function turn(...calls: ReturnType<typeof call>[]) {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive(`go #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return h.server.requests[before + 1]
  }

  const systemOf = (i: number) => messagesOf(h.server.requests[i])[0].content as string

  it('lists the allowed skills sorted, one line each; each broken one is left out with one log line naming its file', async () => {
    await start({ dirs: [root] })
    await turn(call('read', { url: 'skill://weather/SKILL.md' }))
    const system = systemOf(0)
    const section = system.slice(system.indexOf('## Skills')).split('\n\n')[0]
    expect(section).to.equal([
      '## Skills',
      'Before a task one of these covers, read skill://<name>/SKILL.md with read and follow it.',
      '- alpha: Greets new members',
      '- linked: Holds a link out of its folder.',
      '- weather: Look up the weather for a city and answer in one line.',
    ].join('\n'))
    const left = h.warnings().filter(w => w.includes('left out'))
    const lines = (folder: string) => left.filter(w => w.includes(join(root, folder)))
    expect(lines('broken')).to.have.length(1)
    expect(lines('broken')[0]).to.include('no description')
    expect(lines('evil')).to.have.length(1)
    expect(lines('evil')[0]).to.include('not a skill name')
    expect(lines('huge')).to.have.length(1)
    expect(lines('huge')[0]).to.match(/SKILL\.md is 52\d{5} bytes; the limit is 262144/)
    expect(lines('escape')).to.have.length(1)
    expect(lines('escape')[0]).to.include('link out of its folder')
    expect(left).to.have.length(4)
  })

  it('reads SKILL.md and a file beside it through read', async () => {
    await start({ dirs: [root] })
    const [skill, notes] = lastToolValues(await turn(call('read', { url: 'skill://weather/SKILL.md' }), call('read', { url: 'skill://weather/notes.txt' })), 2)
    expect(skill).to.include('# weather\n\nSee [notes](notes.txt).')
    expect(skill).to.include('description: Look up the weather')
    expect(notes).to.equal('Use metric units.\n')
  })

  it('refuses a write, and nothing reaches the folder', async () => {
    await start({ dirs: [root] })
    const [out] = lastToolValues(await turn(call('write', { url: 'skill://weather/notes.txt', content: 'overwritten' })), 1)
    expect(out.ok).to.equal(false)
    expect(out.error.code).to.equal('forbidden')
    expect(out.error.message).to.include('skill:// is read-only')
    expect(await readFile(join(root, 'weather', 'notes.txt'), 'utf8')).to.equal('Use metric units.\n')
  })

  it('reads nothing outside a skill folder: .., an absolute path, a symbolic link out, a left-out skill', async () => {
    await start({ dirs: [root] })
    const urls = ['skill://weather/../alpha/SKILL.md', 'skill://weather/%2E%2E/%2E%2E/etc/passwd', 'skill:///etc/passwd', 'skill://linked/secret.txt', 'skill://escape/SKILL.md', 'skill://huge/SKILL.md']
    const outs = lastToolValues(await turn(...urls.map(url => call('read', { url }))), urls.length)
    expect(outs.map(o => o.split(':')[0])).to.deep.equal(['invalid_url', 'invalid_url', 'invalid_url', 'forbidden', 'not_found', 'not_found'])
    expect(JSON.stringify(outs)).to.not.include('password')
    expect(outs[3]).to.include('resolves outside its root (symbolic link)')
    expect(outs[4]).to.include('there is no skill escape; skills: alpha, linked, weather')
  })

  it('skills.allow limits the list and what skill:// reads', async () => {
    await start({ dirs: [root], allow: ['weather'] })
    const [alpha, weather] = lastToolValues(await turn(call('read', { url: 'skill://alpha/SKILL.md' }), call('read', { url: 'skill://weather/SKILL.md' })), 2)
    expect(alpha).to.equal('not_found: there is no skill alpha; skills: weather')
    expect(weather).to.include('# weather')
    const system = systemOf(0)
    expect(system).to.include('- weather: ')
    expect(system).to.not.include('- alpha: ')
  })

  it('without dirs there is no section and no skill:// scheme', async () => {
    await start({})
    const [out] = lastToolValues(await turn(call('read', { url: 'skill://weather/SKILL.md' })), 1)
    expect(out).to.match(/^unknown_scheme: "skill"/)
    expect(systemOf(0)).to.not.include('## Skills')
  })
})
