import { expect } from 'chai'
import { describeError } from '../../src/util/describe-error'
import { withoutUrls } from '../../src/util/without-urls'

describe('error text', () => {
  it('withoutUrls leaves no link of any scheme in an error message', () => {
    const said = 'GET https://multimedia.nt.qq.com.cn/download?rkey=SECRET failed; see file:///tmp/x and asset://abc'
    expect(withoutUrls(said)).to.equal('GET <url> failed; see <url> and <url>')
    expect(withoutUrls('a card: https://example.com/a b', '')).to.equal('a card:  b')
  })

  it('describeError names the cause the message does not say, caps its length and never throws', () => {
    expect(describeError(new Error('request failed', { cause: new Error('ECONNREFUSED') }))).to.equal('request failed (ECONNREFUSED)')
    expect(describeError(Object.assign(new Error('x failed: boom'), { lastError: new Error('boom') }))).to.equal('x failed: boom')
    expect(describeError('plain')).to.equal('plain')
    expect(describeError(undefined)).to.equal('unknown error')
    expect(describeError(new Error('y'.repeat(50)), 10)).to.equal(`${'y'.repeat(10)}…`)
    const hostile = { get message(): string { throw new Error('no') } }
    expect(describeError(hostile)).to.equal('unknown error')
  })
})
