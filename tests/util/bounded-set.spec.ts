import { expect } from 'chai'
import { BoundedSet } from '../../src/util/bounded-set'

describe('the bounded set', () => {
  it('forgets the least recently added past its bound; adding again makes a member newest', () => {
    const s = new BoundedSet<string>(3)
    for (const v of ['a', 'b', 'c']) s.add(v)
    s.add('a')
    s.add('d')
    expect(['a', 'b', 'c', 'd'].filter(v => s.has(v))).to.deep.equal(['a', 'c', 'd'])
    for (let i = 0; i < 1000; i++) s.add(`x${i}`)
    expect(s.size).to.equal(3)
    expect(s.delete('x999')).to.equal(true)
    expect(s.has('x999')).to.equal(false)
  })
})
