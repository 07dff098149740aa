// kotodama.schedules (SPEC §25): authority 3 lists the tasks of the conversation where it is written
// (id, next time, note, who asked), or says there are none; a lower authority is refused by Koishi;
// a channel no profile claims says so.
import { expect } from 'chai'
import { memoryDatabase } from '../support/databases'
import { Harness, NO_TYPING, call } from '../support/harness'

describe('kotodama.schedules (SPEC §25)', function () {
  this.timeout(20000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('lists the tasks of this conversation only; none elsewhere; a lower authority is refused', async () => {
    h = await Harness.start({
      database: memoryDatabase(), budgets: { timezone: 'Asia/Shanghai' },
      profile: { typing: NO_TYPING, claims: [{ bot: '*', channels: ['room1', 'room2'] }] },
    })
    await h.app.mock.initUser('mod', 3)
    await h.app.mock.initUser('guest', 1)
    await h.app.mock.initUser('bob', 1)
    const ask = async (room: string, args: object) => {
      const before = h!.server.requests.length
      h!.server.script({ toolCalls: [call('schedule', args)] }, { toolCalls: [call('finish', {})] })
      await h!.client('bob', room).receive('<at id="514"/> remind me')
      await h!.server.waitForRequests(before + 2)
      await h!.settled()
    }
    await ask('room1', { at: '2099-01-02 09:00', note: 'renew the passport' })
    await ask('room1', { cron: '0 9 * * 1', note: 'post the weekly plan' })
    const [listed] = await h.client('mod', 'room1').receive('kotodama.schedules')
    const lines = listed.split('\n')
    expect(lines[0]).to.equal('2 task(s) here (times in Asia/Shanghai):')
    expect(lines[1]).to.match(/^#\w{5} {2}\d{4}-\d\d-\d\d 09:00:00 {2}post the weekly plan {2}\(repeats: 0 9 \* \* 1; asked by .+, bob\)$/)
    expect(lines[2]).to.match(/^#\w{5} {2}2099-01-02 09:00:00 {2}renew the passport {2}\(asked by .+, bob\)$/)
    expect(await h.client('mod', 'room2').receive('kotodama.schedules')).to.deep.equal(['No task is scheduled in this conversation.'])
    const [refused] = await h.client('guest', 'room1').receive('kotodama.schedules')
    expect(refused).to.not.include('renew the passport')
    expect(refused).to.equal('Low authority.')
    expect(await h.client('mod', 'room9').receive('kotodama.schedules')).to.deep.equal(['No profile claims channel group:room9.'])
  })
})
