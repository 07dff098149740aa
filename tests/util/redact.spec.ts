import { expect } from 'chai'
import { Redactor } from '../../src/util/redact'

describe('secrets are masked (SPEC §10)', () => {
  const r = new Redactor(['sk-live-123456', 'sk-live-123456-extended', '', 'ab', undefined])

  it('in text, longest secret first; empty and too-short values are not secrets', () => {
    expect(r.text('key sk-live-123456-extended and sk-live-123456!')).to.equal('key *** and ***!')
    expect(r.text('ab is fine')).to.equal('ab is fine')
  })

  it('placeholder keys shorter than 8 characters (ollama, EMPTY) leave text alone', () => {
    const p = new Redactor(['ollama', 'EMPTY', 'test', 'sk-1234'])
    expect(p.empty).to.equal(true)
    const said = 'I run ollama on my laptop; EMPTY means test://doc/1 works with sk-1234'
    expect(p.text(said)).to.equal(said)
    expect(p.value({ url: 'mcp://t/test://doc/1' })).to.deep.equal({ url: 'mcp://t/test://doc/1' })
  })

  it('in values: strings at any depth; a value without secrets is returned as itself', () => {
    const clean = { a: [1, 'two'], b: { c: 'three' } }
    expect(r.value(clean)).to.equal(clean)
    expect(r.value({ type: 'error-text', value: 'Incorrect API key provided: sk-live-123456' })).to.deep.equal({ type: 'error-text', value: 'Incorrect API key provided: ***' })
    expect(r.value({ deep: [{ x: 'Bearer sk-live-123456' }] })).to.deep.equal({ deep: [{ x: 'Bearer ***' }] })
  })

  it('in every argument of a log line, errors and objects included', () => {
    const lines: any[][] = []
    const base = { debug: (...a: any[]) => lines.push(a), info: (...a: any[]) => lines.push(a), warn: (...a: any[]) => lines.push(a), error: (...a: any[]) => lines.push(a) }
    const log = r.logger(base)
    log.warn('failed: %s (%s)', new Error('401 Incorrect API key provided: sk-live-123456'), { headers: { authorization: 'Bearer sk-live-123456' } })
    log.error('key sk-live-123456 in the format')
    expect(JSON.stringify(lines)).to.not.include('sk-live-123456')
    expect(String(lines[0][1])).to.include('Incorrect API key provided: ***')
    expect(String(lines[1][0])).to.equal('key *** in the format')
  })
})
