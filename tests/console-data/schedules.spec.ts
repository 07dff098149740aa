// The schedules view's shape (SPEC §25): groups by conversation, the group of the soonest task first,
// each group soonest first; times in the zone the mind reads them; who asked named by id when the
// name is unknown.
import { expect } from 'chai'
import { schedulesView } from '../../src/console-data/schedules'
import type { Task } from '../../src/schedules/task'

const utc = (s: string) => Date.parse(s)
const task = (id: string, conversation: string, next: string, o: Partial<Task> = {}): Task => ({
  id, conversation, channel: conversation, note: `note ${id}`, next: utc(next), who: { platform: 'onebot', id: '10001', name: 'Alice' },
  asked: utc('2026-03-28T12:00:00Z'), rev: 0, ...o,
})

describe('console data: the schedules view', () => {
  it('groups by conversation, soonest group and task first, in the zone given', () => {
    const view = schedulesView([
      task('c', 'group:2', '2026-03-30T08:00:00Z', { cron: '0 10 * * 1' }),
      task('a', 'group:1', '2026-03-31T08:00:00Z'),
      task('b', 'group:2', '2026-03-29T07:00:00Z', { who: { platform: 'onebot', id: '10002' } }),
      task('d', 'private:7', '2026-03-29T07:30:00Z'),
    ], 'Europe/Berlin')
    expect(view.zone).to.equal('Europe/Berlin')
    expect(view.groups.map(g => [g.conversation, g.tasks.map(t => t.id)])).to.deep.equal([
      ['group:2', ['b', 'c']], ['private:7', ['d']], ['group:1', ['a']],
    ])
    const [b, c] = view.groups[0].tasks
    // the night of 29 March 2026 Berlin moves to summer time: 07:00Z is 09:00 local, a day before it was 08:00
    expect(b).to.deep.equal({
      id: 'b', next: '2026-03-29 09:00:00', nextAt: utc('2026-03-29T07:00:00Z'), note: 'note b', who: { id: '10002', name: '10002' },
      asked: '2026-03-28 13:00:00', askedAt: utc('2026-03-28T12:00:00Z'),
    })
    expect(c).to.include({ cron: '0 10 * * 1', next: '2026-03-30 10:00:00' })
    expect(c.who).to.deep.equal({ id: '10001', name: 'Alice' })
  })

  it('no tasks: no groups', () => {
    expect(schedulesView([], 'UTC')).to.deep.equal({ zone: 'UTC', groups: [] })
  })
})
