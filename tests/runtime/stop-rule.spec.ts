import { expect } from 'chai'
import { stepEndsTurn } from '../../src/runtime/stop-rule'

describe('stop rule (SPEC §4.6)', () => {
  const send = (output: any, input: any = {}) => ({ name: 'send_message', valid: true, input, output })
  it('finish or wait end the turn', () => {
    expect(stepEndsTurn([{ name: 'finish', valid: true, input: {}, output: { ok: true } }])).to.equal(true)
    expect(stepEndsTurn([send({ ok: true }, { continue: true }), { name: 'wait', valid: true, input: {}, output: {} }])).to.equal(true)
  })
  it('a successful send without continue ends it unless another tool ran', () => {
    expect(stepEndsTurn([send({ ok: true })])).to.equal(true)
    expect(stepEndsTurn([send({ ok: true }, { continue: true })])).to.equal(false)
    expect(stepEndsTurn([send({ ok: false })])).to.equal(false)
    expect(stepEndsTurn([send({ ok: true }), { name: 'read', valid: true, input: {}, output: {} }])).to.equal(false)
    expect(stepEndsTurn([send({ ok: true }), { name: 'finish', valid: false, input: {}, output: undefined }])).to.equal(false)
  })
})
