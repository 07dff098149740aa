// The web section's checks (SPEC §24, the one checking style of SPEC §1): a bad field is named by its
// path and falls back; a provider without what it needs (searxng: baseURL; brave, tavily: apiKey)
// turns search off with one problem; the profile still starts.
import { expect } from 'chai'
import { checkConfig, configSchema, partSecrets } from '../../src/runtime/config-of-parts'

const base = (web: Record<string, unknown>) => ({
  models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
  profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], web }],
})

describe('web search: the web section (SPEC §24)', () => {
  it('the form fills the defaults: search off, 8 results, free', () => {
    const checked = checkConfig(configSchema(base({}) as any))
    expect(checked.problems).to.deep.equal([])
    expect((checked.profiles[0] as any).web).to.deep.equal({ search: '', baseURL: '', apiKey: '', maxResults: 8, price: 0 })
  })

  it('searxng without baseURL, brave or tavily without apiKey: search off, the missing field named', () => {
    for (const [web, path] of [
      [{ search: 'searxng' }, 'baseURL'], [{ search: 'brave' }, 'apiKey'], [{ search: 'tavily', apiKey: '  ' }, 'apiKey'],
    ] as const) {
      const checked = checkConfig(configSchema(base(web) as any))
      expect(checked.profiles.map(p => p.id)).to.deep.equal(['neko'])
      expect(checked.problems.map(p => p.path)).to.deep.equal([`profiles[0].web.${path}`])
      expect(checked.problems[0].message).to.match(new RegExp(`must be set for search '${web.search}'.*web search is off`))
      expect((checked.profiles[0] as any).web.search).to.equal('')
    }
  })

  it('bad values fall back with their paths', () => {
    const checked = checkConfig(base({ search: 'google', baseURL: 'ftp://x', maxResults: 50, price: -1 }) as any)
    expect(checked.problems.filter(p => p.path.includes('.web.')).map(p => [p.path, p.message])).to.deep.equal([
      ['profiles[0].web.search', "must be '', searxng, brave, tavily; using the default \"\""],
      ['profiles[0].web.baseURL', 'must be an http:// or https:// URL, or empty; using the default ""'],
      ['profiles[0].web.maxResults', 'must be a whole number from 1 to 20; using the default 8'],
      ['profiles[0].web.price', 'must be a number >= 0; using the default 0'],
    ])
  })

  it('web.apiKey is a secret the service masks', () => {
    expect(partSecrets(base({ search: 'brave', apiKey: 'BSA-secret-token-1' }) as any)).to.deep.equal(['BSA-secret-token-1'])
  })
})
