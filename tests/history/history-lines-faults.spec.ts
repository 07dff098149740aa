// SPEC §10: history lines that are not valid entries (broken JSON, or valid JSON of the wrong
// shape) are skipped with a warning naming the file and line; the conversation never stays
// unusable because of one bad line.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Harness, call } from '../support/harness'
import { hasFactsInOrder, historyFile, readHistoryWhen, requestText, requestUnansweredCalls } from '../support/faults'
import { lastUserText } from '../support/fake-openai'

const AT = Date.UTC(2026, 10, 1, 9, 0)

function factLine(id: string, user: string, content: string, at = AT): string {
  return JSON.stringify({
    type: 'fact', at,
    fact: { id, at, bot: 'mock:514', channel: 'group:room1', guildId: 'room1', direct: false, user: { id: user, name: user }, content },
  })
}

const BAD: string[] = [
  'null',
  '42',
  '"text"',
  '{"type":"fact","at":1}',
  '{"type":"shown","at":1}',
  '{"type":"step","at":1,"turn":1}',
  '{"type":"note","at":1}',
  '{not json',
]

/** The file: a valid fact (line 1), the bad lines (2..9), another valid fact (line 10). */
const LINES = [
  factLine('m1', 'alice', 'the first valid fact'),
  ...BAD,
  factLine('m2', 'bob', 'the second valid fact', AT + 60000),
]
const BAD_LINE_NUMBERS = BAD.map((_, i) => i + 2)

describe('faults: mis-shaped history lines', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  async function startWithBadHistory() {
    h = await Harness.start()
    // The runtime (and the conversation's history) starts with the first claimed message, so
    // the file is in place before the plugin reads it.
    const file = historyFile(h, 'group:room1')
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, LINES.join('\n') + '\n')
    return file
  }

  it('a mention gets a request that shows both valid facts, and an answer', async () => {
    await startWithBadHistory()
    h.server.script({ toolCalls: [call('send_message', { messages: ['I can still read'] })] })
    await h.client('carol', 'room1').receive('<at id="514"/> can you see the others?')
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text).to.include('the first valid fact')
    expect(text).to.include('the second valid fact')
    expect(text).to.include('can you see the others?')
    expect(text.indexOf('the first valid fact')).to.be.below(text.indexOf('the second valid fact'))
    expect(requestUnansweredCalls(h.server.requests[0])).to.deep.equal([])
    await h.until(() => h.sent.length === 1, 'the answer')
    expect(h.sent[0]).to.deep.include({ channel: 'room1', content: 'I can still read' })
    await h.settled()
  })

  it('a step whose call lost its result does not kill the channel: the request goes out, the call answered as cut off (issue 21)', async () => {
    h = await Harness.start()
    const file = historyFile(h, 'group:room1')
    await mkdir(dirname(file), { recursive: true })
    const cut = JSON.stringify({ type: 'step', at: AT + 1000, turn: 1, messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'lost1', toolName: 'read', input: { url: 'local://' } }] },
    ] })
    await writeFile(file, [factLine('m1', 'alice', 'before the crash'), JSON.stringify({ type: 'turn', at: AT + 500, turn: 1, reason: 'mention' }), cut].join('\n') + '\n')
    h.server.script({ toolCalls: [call('send_message', { messages: ['still here'] })] })
    await h.client('carol', 'room1').receive('<at id="514"/> are you alive?')
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    const req = h.server.requests[0]
    expect(requestUnansweredCalls(req)).to.deep.equal([])
    expect(requestText(req)).to.include('cut off')
    expect(h.warnings().filter(w => w.includes(`${file}:3: repaired a step`))).to.have.length(1)
  })

  it('each bad line is skipped with a warning naming the file and its line; no error', async () => {
    await startWithBadHistory()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('carol', 'room1').receive('<at id="514"/> hello')
    await h.server.waitForRequests(1)
    await h.settled()
    const about = h.logs.filter(l => l.text.includes('group%3Aroom1.jsonl'))
    const warned = new Set<number>()
    for (const l of about) for (const m of l.text.matchAll(/(?:line\s+|\.jsonl:)(\d+)/gi)) warned.add(Number(m[1]))
    for (const n of BAD_LINE_NUMBERS) {
      expect([...warned], `a warning names line ${n} (${JSON.stringify(LINES[n - 1])}); warnings: ${JSON.stringify(about.map(l => l.text))}`).to.include(n)
    }
    expect([...warned], 'valid lines are not warned about').to.not.include.members([1, 10])
    expect(h.logs.filter(l => l.level === 'error').map(l => l.text), 'errors in the log').to.deep.equal([])
  })

  it('the conversation keeps working over several turns and a restart; the valid lines stay on disk', async () => {
    await startWithBadHistory()
    h.server.script({ toolCalls: [call('send_message', { messages: ['one'] })] })
    await h.client('carol', 'room1').receive('<at id="514"/> first turn')
    await h.until(() => h.sent.length === 1, 'the first answer')
    await h.settled()
    await h.reload()
    h.server.script({ toolCalls: [call('send_message', { messages: ['two'] })] })
    await h.client('dave', 'room1').receive('<at id="514"/> after a restart')
    await h.server.waitForRequests(2)
    await h.until(() => h.sent.length === 2, 'the answer after the restart')
    const seen = requestText(h.server.requests[1])
    for (const t of ['the first valid fact', 'the second valid fact', 'first turn', 'after a restart', 'one']) expect(seen).to.include(t)
    expect(requestUnansweredCalls(h.server.requests[1])).to.deep.equal([])
    await h.settled()
    const history = await readHistoryWhen(h, 'group:room1', r => hasFactsInOrder(r, ['after a restart']) && JSON.stringify(r.entries).includes('"two"'))
    expect(history.lines[0]).to.equal(LINES[0])
    expect(history.lines).to.include(LINES[LINES.length - 1])
    expect(history.lines.join('\n')).to.include('after a restart')
  })
})
