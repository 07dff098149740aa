// A QQ face in the owner's console (console-data/transcript.ts): the mind reads the element
// `<face name="斜眼笑"/>` (SPEC §27); the console's text shows it as `[face: 斜眼笑]`, never drops it.
import { expect } from 'chai'
import { transcript } from '../../src/console-data/transcript'
import type { Entry } from '../../src/history/entries'

describe('the console shows QQ faces', () => {
  it('a face by name reads [face: name], one by id [face id]', () => {
    const fact: Entry = {
      type: 'fact', at: 0,
      fact: { id: '1', at: 0, bot: 'onebot:10001', channel: 'group:555', direct: false, user: { id: '2001', name: 'Alice' },
        content: 'lol <face name="斜眼笑"/> <face id="14"/>' },
    }
    const [item] = transcript({ key: 'group:555', entries: [fact], busy: false }).items
    expect((item as any).text).to.equal('lol [face: 斜眼笑] [face 14]')
  })
})
