import { expect } from 'chai'
import { uuidv7, UUIDV7 } from '../src/util/uuidv7'
import { safeName } from '../src/util/safe-name'

describe('small utilities', () => {
  it('uuidv7 ids are valid and increase', () => {
    const ids = Array.from({ length: 100 }, () => uuidv7())
    expect(ids.every(id => UUIDV7.test(id))).to.equal(true)
    expect([...ids].sort()).to.deep.equal(ids)
  })
  it('safeName is file-system safe and distinct', () => {
    expect(safeName('group:123')).to.equal('group%3A123')
    expect(safeName('..')).to.equal('%2E%2E')
    expect(safeName('a/b')).to.not.include('/')
  })
})
