// The provenance rule alone (SPEC §26, src/upkeep/provenance.ts): which text a change adds, and
// when that text must name whose words it rests on.
import { expect } from 'chai'
import { addedText, claimRefusal } from '../../src/upkeep/provenance'

const ALICE = { id: '42', name: 'Alice' }
const BOB = { id: '7', name: 'Bob' }

describe('upkeep: the provenance rule', () => {
  it('a content rewrite adds only its new lines; an edit adds what its replace has beyond its find; remove and moveTo add nothing', () => {
    const old = '# Bob\nPlays bass.\nLives in Kyoto.\n'
    expect(addedText({ content: '# Bob\nPlays bass.\nLives in Osaka.\n' }, old)).to.equal('Lives in Osaka.')
    expect(addedText({ content: '# Bob\nLives in Kyoto.\nPlays bass.\n' }, old), 'a reorder adds nothing').to.equal('')
    expect(addedText({ edit: { find: 'Lives in Kyoto.', replace: 'Lives in Kyoto.\nHas a dog.' } }, old)).to.equal('Has a dog.')
    expect(addedText({ append: 'x' }, old)).to.equal('x')
    expect(addedText({ remove: true }, old)).to.equal('')
    expect(addedText({ moveTo: 'local://memory/b.md' }, old)).to.equal('')
  })

  it('what a person says of themselves needs no attribution in their note; anyone else\'s words need their name or id', () => {
    expect(claimRefusal('Plays bass.', [BOB], { subject: '7', person: true })).to.equal(undefined)
    expect(claimRefusal('Owes money.', [ALICE], { person: true })).to.include('Alice (42)').and.include('their claim')
    expect(claimRefusal('alice says he owes money.', [ALICE], { person: true }), 'the name, any case').to.equal(undefined)
    expect(claimRefusal('42 says he owes money.', [ALICE], { person: true }), 'or the id').to.equal(undefined)
    expect(claimRefusal('The meetup is on Friday.', [ALICE, BOB], { person: false })).to.include('Alice (42), Bob (7)')
    expect(claimRefusal('Bob says the meetup is on Friday.', [ALICE, BOB], { person: false }), 'one of them named').to.equal(undefined)
    expect(claimRefusal('', [ALICE], { person: true }), 'nothing added').to.equal(undefined)
    expect(claimRefusal('I promised to remind them.', [], { person: false }), 'the mind\'s own words').to.equal(undefined)
  })
})
