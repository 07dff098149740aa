// A chunk as the run's first message (SPEC §26, src/upkeep/page.ts, people.ts): one line a
// message under a line per hour, a name two people share with its id, a message taken back as such,
// and a [people] line with the note's URL for every writer, the notes of the first 20 shown.
import { expect } from 'chai'
import type { RecallDoc } from '../../src/recall/docs'
import type { ReadResult } from '../../src/resources/types'
import { chunkMessage, chunkOf } from '../../src/upkeep/page'
import { MAX_PEOPLE, peopleBlock } from '../../src/upkeep/people'

const at = (s: string) => Date.parse(s)
const doc = (id: string, uid: string, who: string, text: string, when: string, o: Partial<RecallDoc> = {}): RecallDoc =>
  ({ k: `f:group:g1:${id}`, id, at: at(when), who, uid, ch: '', text, ...o })

describe('upkeep: a chunk as the model reads it', () => {
  it('lines under an hour each, shared names with ids, the mind as "you", a message taken back as such', () => {
    const docs = [
      doc('11', '42', 'Alice', 'morning', '2026-12-02T01:05:00Z'),
      doc('12', '7', 'Alice', 'I am the other Alice\nwith two lines', '2026-12-02T01:40:00Z'),
      doc('13', '514', 'neko', 'hi both', '2026-12-02T02:01:00Z', { self: true }),
      doc('14', '9', 'Bob', 'oops', '2026-12-02T02:02:00Z'),
    ]
    const text = chunkMessage(docs, {
      own: 'history://group%3Ag1', where: 'the group group:g1', first: 0, end: 4, total: 10, zone: 'Asia/Shanghai', people: '[people] …',
      recalled: d => d.id === '14',
    })
    expect(text).to.equal([
      '[upkeep of the group group:g1: messages 1–4 of 10; 6 later ones come in the next part of this run; times in Asia/Shanghai. Message #id is history://group%3Ag1/id]',
      '[people] …',
      '[messages]',
      '[2026-12-02 Wed 09:00–09:59]',
      '#11 Alice (42): morning',
      '#12 Alice (7): I am the other Alice',
      '  with two lines',
      '[2026-12-02 Wed 10:00–10:59]',
      '#13 you: hi both',
      '#14 Bob: [taken back]',
    ].join('\n') + '\n')
  })

  it('a chunk holds what fits its characters, and one message at least', () => {
    const docs = Array.from({ length: 10 }, (_, i) => doc(String(i), 'u', 'u', 'x'.repeat(100), '2026-12-02T01:00:00Z'))
    const read = (a: number, b: number) => docs.slice(a, b)
    expect(chunkOf(read, 0, 10, 400).end).to.equal(3)
    expect(chunkOf(read, 3, 10, 400)).to.include({ end: 6 })
    expect(chunkOf(read, 0, 10, 10).end, 'one at least').to.equal(1)
  })

  it('every writer has a line with their note\'s URL; the notes of the first 20 are read and shown', async () => {
    const docs = Array.from({ length: 25 }, (_, i) => doc(String(i), `u${i}`, `P${i}`, 'hello', '2026-12-02T01:00:00Z'))
    const asked: string[] = []
    const read = async (url: string): Promise<ReadResult> => {
      asked.push(url)
      return { kind: 'text', url, text: `note of ${url.split('/').pop()}`, mediaType: 'text/markdown', source: { url, offset: 0, line: 1, column: 1 }, range: { startLine: 1 } }
    }
    const block = await peopleBlock(docs, { platform: 'onebot', scope: { conversation: 'group:g1' }, read })
    expect(asked).to.have.length(MAX_PEOPLE)
    expect(block).to.include('- P0 (id u0): local://memory/people/onebot/u0.md\n  note of u0.md')
    expect(block).to.include('- P24 (id u24): local://memory/people/onebot/u24.md\n')
    expect(block).to.not.include('note of u24.md')
  })
})
