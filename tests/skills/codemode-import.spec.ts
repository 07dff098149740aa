// A skill's modules in codemode (SPEC §24): a real QuickJS program on the plugin's sandbox imports
// `skill://<name>/file.js`, which imports a sibling by a relative path; what cannot be imported
// (missing, a syntax error, outside the skill, a skill not allowed, too large) is a named error the
// program catches.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'
import { MAX_MODULE_BYTES } from '../../src/sandbox/limits'
import { writeSkill } from './skill-folders'

describe('skills: import() in codemode (SPEC §24)', function () {
  this.timeout(30_000)
  let h: Harness
  let root: string

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'kotodama-skill-modules-'))
    await writeSkill(root, 'units', {
      name: 'units', description: 'Converts units.',
      files: {
        'convert.js': "import { factor } from './lib/table.js'\nexport const toKm = (miles) => Math.round(miles * factor('mile') * 1000) / 1000\n",
        'lib/table.js': "const table = { mile: 1.609344 }\nexport function factor(unit) { return table[unit] }\n",
        'lib/escape.js': "export * from '../../secret/x.js'\n",
        'bad.js': 'export const = 1\n',
        'big.js': `export const s = '${'x'.repeat(MAX_MODULE_BYTES)}'\n`,
      },
    })
    await writeSkill(root, 'secret', { name: 'secret', description: 'Not allowed here.', files: { 'x.js': 'export const x = 1\n' } })
    h = await Harness.start({ profile: { codemode: { enabled: true, direct: [] }, skills: { dirs: [root], allow: ['units'] } } })
  })
  after(async () => {
    await h?.stop()
    await rm(root, { recursive: true, force: true })
  })

  async function program(code: string): Promise<any> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('codemode', { code })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive(`run #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return JSON.parse(toolResultsOf(h.server.requests[before + 1]).at(-1)!.content)
  }

  it('loads a skill module and its relative sibling in the sandbox', async () => {
    const out = await program("const { toKm } = await import('skill://units/convert.js')\nreturn toKm(26.2)")
    expect(out).to.equal(42.165)
  })

  it('what cannot be imported is a named error the program catches', async () => {
    const out = await program(`const errors = {}
for (const url of ['skill://units/none.js', 'skill://units/bad.js', 'skill://units/lib/escape.js', 'skill://secret/x.js', 'skill://units/big.js', './convert.js', 'https://example.com/x.js']) {
  try { await import(url); errors[url] = 'loaded' } catch (e) { errors[url] = e.name + ': ' + e.message }
}
return errors`)
    expect(out['skill://units/none.js']).to.equal('ModuleNotFound: skill://units/none.js does not exist')
    expect(out['skill://units/bad.js']).to.match(/^SyntaxError: /)
    expect(out['skill://units/lib/escape.js']).to.equal("ModuleNotFound: ../../secret/x.js from skill://units/lib/escape.js leaves the skill's folder")
    expect(out['skill://secret/x.js']).to.equal('ModuleNotFound: there is no skill secret; skills: units')
    expect(out['skill://units/big.js']).to.match(/^ModuleTooLarge: skill:\/\/units\/big\.js is \d+ bytes; a module may have 262144/)
    expect(out['./convert.js']).to.match(/^ModuleNotFound: a relative import needs a skill module/)
    expect(out['https://example.com/x.js']).to.equal('ModuleNotFound: only skill:// modules can be imported, not https://example.com/x.js')
  })
})
