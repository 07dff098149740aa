// QQ's reaction table (SPEC §23): every entry of NapCat's face table (src/acts/qq-reactions.json,
// NapNeko/NapCatQQ af074793 packages/napcat-core/external/face_config.json) is found by what the
// mind writes and by the id a notice gives, and they agree.
import { expect } from 'chai'
import table from '../../src/acts/qq-reactions.json'
import { REACTIONS, reactionById, reactionOf } from '../../src/acts/reactions'

describe('acts: QQ reactions', () => {
  it('every face of the table: by id, and by its name unless a face of a lower id has the name', () => {
    const firstIdOf = new Map<string, string>()
    for (const [id, name] of [...table.faces].sort((a, b) => Number(a[0]) - Number(b[0]))) if (!firstIdOf.has(name)) firstIdOf.set(name, id)
    expect(table.faces.length).to.be.above(300)
    for (const [id, name] of table.faces) {
      expect(reactionById(id), id).to.deep.equal({ id, shown: name, kind: 'face' })
      expect(reactionOf(name)!.id, name).to.equal(firstIdOf.get(name))
      expect(reactionOf(`/${name}`)!.id, name).to.equal(firstIdOf.get(name))
    }
  })

  it('every Unicode emoji of the table: by the emoji (with or without its variation selector) and by its code point', () => {
    expect(table.emoji.length).to.be.above(150)
    for (const [id, char] of table.emoji) {
      expect(String(char.codePointAt(0)), char).to.equal(id)
      expect(reactionOf(char), char).to.deep.equal({ id, shown: char, kind: 'emoji' })
      expect(reactionOf(`${char}\uFE0F`)!.id, char).to.equal(id)
      expect(reactionById(Number(id))!.shown).to.equal(char)
    }
    expect(REACTIONS.size).to.equal(table.faces.length + table.emoji.length)
  })

  it('the common ones, and what QQ does not have', () => {
    expect(reactionOf('👍')).to.deep.equal({ id: '128077', shown: '👍', kind: 'emoji' })
    expect(reactionOf('赞')).to.deep.equal({ id: '76', shown: '赞', kind: 'face' })
    expect(reactionOf('微笑')!.id).to.equal('14')
    expect(reactionOf('🦖')).to.equal(undefined)
    expect(reactionOf('not a face')).to.equal(undefined)
    expect(reactionOf('👍'.repeat(500))).to.equal(undefined)
    expect(reactionById('999999')).to.equal(undefined)
  })
})
