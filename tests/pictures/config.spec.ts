// The config of pictures (SPEC §24): an image entry needs none of a chat model's fields; a chat
// place naming an image entry (a profile's model, a judge, a chat model's fallback) is an error
// with its path; images.model must name an image entry, images.size be WxH. The section is the
// form the console shows.
import { expect } from 'chai'
import { Config } from '../../src'
import { DEFAULT_PICTURES, picturesSection } from '../../src/pictures/config'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { profileFormOf, schemaShape } from '../support/schema-shape'

const CHAT = { id: 'main', baseURL: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 0, timeoutMs: 1000, contextTokens: 0, fallback: [] as string[] }
// only what an images endpoint needs
const IMAGE = { id: 'painter', kind: 'image', baseURL: 'http://127.0.0.1:2/v1', model: 'dall-e-3', maxRetries: 0, timeoutMs: 1000 }
const profile = (o: Record<string, unknown> = {}) => ({ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], maxSteps: 20, ...o })

describe('pictures: config', () => {
  it('the section is the console\'s form with its defaults', () => {
    expect(schemaShape(picturesSection.schema())).to.deep.equal(schemaShape(profileFormOf(Config, 'images')))
    expect(picturesSection.schema()(undefined)).to.deep.equal(DEFAULT_PICTURES)
  })

  it('an image entry with only its endpoint fields passes; images.model names it', () => {
    const checked = checkConfig({ models: [CHAT, IMAGE], profiles: [profile({ images: { model: 'painter' } })] } as any)
    expect(checked.problems).to.deep.equal([])
    expect(checked.profiles[0].images).to.deep.include({ model: 'painter', size: '1024x1024', perUserDay: 5 })
  })

  it('a profile whose model is an image entry is stopped, with its path', () => {
    const checked = checkConfig({ models: [CHAT, IMAGE], profiles: [profile({ model: 'painter' })] } as any)
    expect(checked.profiles).to.have.length(0)
    expect(checked.problems).to.deep.include({ profile: 'neko', index: 0, path: 'profiles[0].model', message: 'names image model "painter", which cannot chat' })
  })

  it('images fields that are wrong fall back with their paths; a judge or a fallback of another kind is refused', () => {
    const checked = checkConfig({
      models: [{ ...CHAT, fallback: ['painter'] }, IMAGE],
      profiles: [profile({ images: { model: 'main', size: 'big', perUserDay: -1, reference: '/etc/me.png' }, wake: { judge: 'painter' } })],
    } as any)
    const by = Object.fromEntries(checked.problems.map(p => [p.path, p.message]))
    expect(by['profiles[0].images.model']).to.equal('names model "main", which is not of kind image; using the default ""')
    expect(by['profiles[0].images.size']).to.match(/^must be WIDTHxHEIGHT/)
    expect(by['profiles[0].images.perUserDay']).to.match(/^must be a whole number/)
    expect(by['profiles[0].images.reference']).to.match(/^must be a local:\/\/ picture/)
    expect(by['profiles[0].wake.judge']).to.match(/^names image model "painter"/)
    expect(by['models[0].fallback[0]']).to.equal('names model "painter" of another kind; it is left out')
    expect(checked.profiles[0].images).to.deep.equal(DEFAULT_PICTURES)
  })

  it('an image entry through another provider, or of an unknown kind, is left out', () => {
    const checked = checkConfig({ models: [CHAT, { ...IMAGE, provider: 'anthropic' }, { ...IMAGE, id: 'x', kind: 'video' }], profiles: [] } as any)
    expect(checked.problems.map(p => p.path)).to.include.members(['models[1].provider', 'models[2].kind'])
  })
})
