// The acts section in its folder (src/acts/config.ts): the same console form, defaults and texts as
// the plugin's form shows, and its checks: a bad value is reported with its path and the default used.
import { expect } from 'chai'
import { Config } from '../../src'
import type { SectionContext } from '../../src/part/plugin'
import { actsSection, DEFAULT_ACTS } from '../../src/acts/config'
import { actsPart } from '../../src/acts/part'
import { sectionOf } from '../../src/part/section-config'
import { checkConfig, configSchema } from '../../src/runtime/config-of-parts'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const context: SectionContext = { hasModel: () => false }
const check = (path: string, value: unknown) => actsSection.checks![path](value, context)

describe('acts: its config section', () => {
  it('is the form the console shows: fields, defaults, zh-CN and en-US texts', () => {
    expect(schemaShape(actsSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'acts')))
    expect(actsSection.schema()(undefined)).to.deep.equal(DEFAULT_ACTS)
    const shape = schemaShape(actsSection.schema()) as any
    expect(shape.dict.perTurn.description['zh-CN']).to.equal('每轮最多的动作数（各类合计）；多出的被丢弃并告知心智。')
    expect(shape.dict.unsend.description['en-US']).to.include("within the platform's window")
  })

  it('checks each field', () => {
    expect(check('perTurn', -1)).to.equal('must be a whole number >= 0')
    expect(check('perTurn', 1.5)).to.equal('must be a whole number >= 0')
    expect(check('react', 'yes')).to.equal('must be true or false')
    expect(check('perTurn', 0)).to.equal(undefined)
    expect(Object.keys(actsSection.checks!)).to.have.members(['react', 'poke', 'unsend', 'perTurn'])
  })

  // a wrong type (poke: 'often') is the schema's to refuse; what the schema lets through is checked here
  it('a profile with a bad acts value: reported at its path, the default used, the good ones kept, the profile starts', () => {
    const config = {
      models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
      profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], acts: { perTurn: -2, unsend: false } }],
    }
    const checked = checkConfig(configSchema(config as any))
    expect(checked.profiles.map(p => p.id)).to.deep.equal(['neko'])
    expect(checked.problems.map(p => [p.path, p.message])).to.deep.equal([
      ['profiles[0].acts.perTurn', 'must be a whole number >= 0; using the default 3'],
    ])
    expect(sectionOf(actsPart.section, checked.profiles[0])).to.deep.equal({ react: true, poke: true, unsend: false, perTurn: 3 })
  })
})
