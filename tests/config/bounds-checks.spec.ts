// SPEC §22's bounds in the one checking style: a bad attachment.maxAssetBytes, attachment.keepDays
// or codemode.maxPaidCalls is reported with its path and falls back to its default.
import { expect } from 'chai'
import { DEFAULT_ATTACHMENT, DEFAULT_CODEMODE } from '../../src/config/defaults'
import { checkConfig, configSchema } from '../../src/runtime/config-of-parts'

const base = (profile: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
  profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], ...profile }],
  ...extra,
})

describe('config: the media store and paid-call bounds', () => {
  it('defaults: 1 GiB kept, 30 days shown, 10 paid calls a program', () => {
    const checked = checkConfig(configSchema(base({}) as any))
    expect(checked.problems).to.deep.equal([])
    expect(checked.profiles[0].attachment).to.include({ maxAssetBytes: 1073741824, keepDays: 30 })
    expect(checked.codemode.maxPaidCalls).to.equal(10)
  })

  it('bad values are reported with their paths and replaced by the defaults', () => {
    const checked = checkConfig(configSchema(base({ attachment: { maxAssetBytes: -1, keepDays: -2 } }, { codemode: { maxPaidCalls: 2.5 } }) as any))
    expect(checked.problems.map(p => [p.path, p.message])).to.deep.equal([
      ['codemode.maxPaidCalls', 'must be a whole number >= 0; using the default 10'],
      ['profiles[0].attachment.maxAssetBytes', 'must be a whole number >= 0; using the default 1073741824'],
      ['profiles[0].attachment.keepDays', 'must be a number >= 0; using the default 30'],
    ])
    expect(checked.profiles[0].attachment).to.include({ maxAssetBytes: DEFAULT_ATTACHMENT.maxAssetBytes, keepDays: DEFAULT_ATTACHMENT.keepDays })
    expect(checked.codemode.maxPaidCalls).to.equal(DEFAULT_CODEMODE.maxPaidCalls)
  })
})
