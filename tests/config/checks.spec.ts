// One checking style for a profile (issue 37): a bad field is reported with its path and falls back
// to its default, and the profile starts; only what has no safe default (its id, model, claims)
// stops it. The parts' sections are checked alike.
import { expect } from 'chai'
import { DEFAULT_TIMING } from '../../src/config/defaults'
import { checkConfig, configSchema } from '../../src/runtime/config-of-parts'
import { Harness, call } from '../support/harness'

const base = (profile: Record<string, unknown>) => ({
  models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }, { id: 'emb', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'e' }],
  profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], ...profile }],
})

describe('config: one checking style', function () {
  this.timeout(20000)
  let h: Harness | undefined
  afterEach(async () => { await h?.stop(); h = undefined })

  it('a bad timing value falls back to its default with its path; the profile starts', () => {
    const checked = checkConfig(configSchema(base({ timing: { debounceMs: -5, perUser: { count: 1.5 } } }) as any))
    expect(checked.profiles.map(p => p.id)).to.deep.equal(['neko'])
    expect(checked.profiles[0].timing).to.deep.include({ debounceMs: DEFAULT_TIMING.debounceMs, perUser: { count: 0, seconds: 60 } })
    expect(checked.problems.map(p => [p.path, p.message, p.leftOut])).to.deep.equal([
      ['profiles[0].timing.debounceMs', 'must be a number >= 0; using the default 1500', true],
      ['profiles[0].timing.perUser.count', 'must be a whole number >= 0; using the default 0', true],
    ])
  })

  it('typing, context, maxSteps and an unknown vision, judge or embedding model fall back too; a bad model or claim still stops', () => {
    const checked = checkConfig(configSchema(base({
      typing: { jitter: 3 }, context: { maxChars: 0 }, maxSteps: -1, attachment: { visionModel: 'eye' }, wake: { judge: 'judge' },
      recall: { embeddingModel: 'nope' },
    }) as any))
    expect(checked.profiles.map(p => p.id)).to.deep.equal(['neko'])
    expect(checked.problems.map(p => p.path)).to.deep.equal([
      'profiles[0].typing.jitter', 'profiles[0].attachment.visionModel', 'profiles[0].context.maxChars', 'profiles[0].wake.judge',
      'profiles[0].recall.embeddingModel', 'profiles[0].maxSteps',
    ])
    const p = checked.profiles[0]
    expect([p.typing.jitter, p.attachment.visionModel, p.wake.judge, p.context.maxChars, p.maxSteps]).to.deep.equal([0.25, '', '', 60000, 20])
    expect(p.recall).to.deep.equal({ enabled: true, embeddingModel: '' })
    const stopped = checkConfig(configSchema(base({ model: 'gone' }) as any))
    expect(stopped.profiles).to.deep.equal([])
    expect(stopped.problems.map(p => [p.path, p.leftOut])).to.deep.equal([['profiles[0].model', undefined]])
  })

  it('through the plugin: a profile with a bad timing value answers with the default timing', async () => {
    h = await Harness.start({ profile: { timing: { debounceMs: -1, debounceMaxMs: 0 } } })
    expect(h.warnings()).to.include('profile "neko": config profiles[0].timing.debounceMs must be a number >= 0; using the default 1500')
    h.server.script({ toolCalls: [call('send_message', { messages: ['here'] })] })
    await h.client('bob').receive('anyone?')
    await h.until(() => h.sent.length === 1, 'the answer')
    expect(h.sent[0].content).to.equal('here')
  })
})
