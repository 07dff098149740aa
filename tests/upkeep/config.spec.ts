// The upkeep section (SPEC §26): the console's form with its defaults; wrong fields fall back with
// their paths and the profile still starts; upkeep.model must name a chat model.
import { expect } from 'chai'
import { Config } from '../../src'
import { DEFAULT_UPKEEP, upkeepSection } from '../../src/upkeep/config'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const CHAT = { id: 'main', baseURL: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 0, timeoutMs: 1000, contextTokens: 0, fallback: [] as string[] }
const IMAGE = { id: 'painter', kind: 'image', baseURL: 'http://127.0.0.1:2/v1', model: 'dall-e-3', maxRetries: 0, timeoutMs: 1000 }
const profile = (o: Record<string, unknown> = {}) => ({ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], maxSteps: 20, ...o })

describe('upkeep: config', () => {
  it('the section is the console\'s form, off by default', () => {
    expect(schemaShape(upkeepSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'upkeep')))
    expect(upkeepSection.schema()(undefined)).to.deep.equal(DEFAULT_UPKEEP)
    expect(DEFAULT_UPKEEP).to.include({ enabled: false, at: '04:00', model: '', review: 'owner', maxChanges: 20 })
  })

  it('good fields pass; upkeep.model may name another chat model', () => {
    const checked = checkConfig({ models: [CHAT, { ...CHAT, id: 'cheap' }], profiles: [profile({ upkeep: { enabled: true, at: '23:30', model: 'cheap', review: 'auto' } })] } as any)
    expect(checked.problems).to.deep.equal([])
    expect(checked.profiles[0].upkeep).to.include({ enabled: true, at: '23:30', model: 'cheap', review: 'auto' })
  })

  it('wrong fields fall back with their paths, and the profile starts', () => {
    const checked = checkConfig({
      models: [CHAT, IMAGE],
      profiles: [profile({ upkeep: { enabled: 'yes', at: '4am', model: 'painter', review: 'members', maxChanges: -1, maxTokens: 10 } })],
    } as any)
    const by = Object.fromEntries(checked.problems.map(p => [p.path, p.message]))
    expect(by['profiles[0].upkeep.enabled']).to.match(/^must be true or false/)
    expect(by['profiles[0].upkeep.at']).to.match(/^must be a time of day, HH:MM/)
    expect(by['profiles[0].upkeep.model']).to.match(/^names model "painter", which is not a chat model/)
    expect(by['profiles[0].upkeep.review']).to.match(/^must be owner or auto/)
    expect(by['profiles[0].upkeep.maxChanges']).to.match(/^must be a whole number from 0/)
    expect(by['profiles[0].upkeep.maxTokens']).to.match(/^must be a whole number from 4000/)
    expect(checked.profiles).to.have.length(1)
    expect(checked.profiles[0].upkeep).to.deep.equal(DEFAULT_UPKEEP)
  })
})
