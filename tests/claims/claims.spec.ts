import { expect } from 'chai'
import { isClaimed, patternError } from '../../src/claims/match'
import { channelKey, normalizeTarget } from '../../src/claims/channel-key'

describe('claims (SPEC §1)', () => {
  const claims = [{ bot: 'onebot:10000', channels: ['group:*', '!group:999', 'private:*'] }, { bot: '*', channels: ['room1'] }]
  const table: [string, string, boolean][] = [
    ['onebot:10000', 'group:123', true],
    ['onebot:10000', 'group:999', false],
    ['onebot:10000', 'private:42', true],
    ['onebot:20000', 'group:123', false],
    ['discord:1', 'group:room1', true],   // a raw id pattern matches the group: spelling
    ['discord:1', 'room1', true],
    ['discord:1', 'group:room2', false],
  ]
  for (const [bot, channel, want] of table) {
    it(`${bot} ${channel} → ${want}`, () => expect(isClaimed(claims, bot, channel)).to.equal(want))
  }
  it('an exclusion of either spelling wins over a positive match', () => {
    expect(isClaimed([{ bot: '*', channels: ['*', '!999'] }], 'a:b', 'group:999')).to.equal(false)
    expect(isClaimed([{ bot: '*', channels: ['*', '!group:999'] }], 'a:b', 'group:999')).to.equal(false)
  })
  it('rejects malformed patterns', () => {
    expect(patternError('gr*up')).to.match(/only at the end/)
    expect(patternError('!')).to.match(/empty/)
    expect(patternError('a b')).to.match(/white space/)
    expect(patternError('group:*')).to.equal(undefined)
  })
  it('channel keys name groups group:<id> and keep private ids', () => {
    expect(channelKey('123', false)).to.equal('group:123')
    expect(channelKey('private:7', true)).to.equal('private:7')
    expect(normalizeTarget('123')).to.equal('group:123')
    expect(normalizeTarget('group:1')).to.equal('group:1')
  })
})
