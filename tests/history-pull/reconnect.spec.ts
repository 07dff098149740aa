// Defect 5 of issue 37: a reconnect pulled history for every stored conversation. Through the real
// OneBot adapter and the fake NapCat: a home of 2,000 stored group conversations, 50 of them with
// activity in the last day (history.pullMaxAgeHours, docs/platforms.md "History after downtime");
// a reconnect asks the platform for the history of those 50 only. A quiet conversation is pulled at
// its next message (its first since the reconnect), as before.
import { expect } from 'chai'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Universal } from 'koishi'
import { runtimeHome } from '../../src/runtime/runtime'
import { safeName } from '../../src/util/safe-name'
import { OneBotHarness, call } from '../support/onebot-harness'
import { idle, until } from '../support/app-waits'

const BOT = 'onebot:10001'
const STORED = 2000
const ACTIVE = 50
const HOUR = 3_600_000
const group = (i: number) => 7000 + i
const isActive = (i: number) => i % (STORED / ACTIVE) === 0
/** where the live messages of the test are said: its pull is the first message's, not the reconnect's */
const LIVE = 555

/** One fact a conversation file holds, its file last changed `at`. */
async function seed(dataDir: string): Promise<void> {
  const dir = join(runtimeHome(dataDir, 'neko', BOT), 'conversations')
  await mkdir(dir, { recursive: true })
  const now = Date.now()
  for (let i = 0; i < STORED; i++) {
    const channel = `group:${group(i)}`
    const at = isActive(i) ? now - 2 * HOUR : now - 72 * HOUR
    const fact = { id: `m${i}`, at, bot: BOT, channel, direct: false, user: { id: '2001', name: 'Alice' }, content: `said in ${channel}` }
    const file = join(dir, `${safeName(channel)}.jsonl`)
    await writeFile(file, JSON.stringify({ type: 'fact', at, fact }) + '\n')
    await utimes(file, at / 1000, at / 1000)
  }
}

/** The stored groups whose history was asked for since call `from`, one entry a call. */
const groupsAsked = (h: OneBotHarness, from: number) =>
  h.napcat.calls.slice(from).filter(c => c.action === 'get_group_msg_history').map(c => Number(c.params.group_id)).filter(g => g !== LIVE)

/** Resolves once no history call came for `quietMs` (real time). */
async function quiet(h: OneBotHarness, quietMs = 400): Promise<void> {
  let seen = -1
  for (let waited = 0; waited < 60_000; waited += quietMs) {
    const now = h.napcat.calls.length
    if (now === seen) return
    seen = now
    await idle(quietMs)
  }
}

describe('history after downtime: a reconnect pulls only conversations active recently (issue 37, defect 5)', function () {
  this.timeout(90_000)
  let h: OneBotHarness
  let dataDir: string
  afterEach(async () => {
    await h?.stop()
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  })

  it(`${STORED} stored conversations, ${ACTIVE} active in the last day: a reconnect makes at most ${ACTIVE} history calls`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-reconnect-'))
    await seed(dataDir)
    h = await OneBotHarness.start({ dataDir })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    // a message in a new group starts the runtime: its start pulls the recent conversations
    await h.napcat.groupMessage({ group: LIVE, user: 2001, text: 'hello' })
    await until(() => groupsAsked(h, 0).length >= ACTIVE, 'the start\'s pull', 30_000)
    await quiet(h)
    const active = Array.from({ length: STORED }, (_, i) => i).filter(isActive).map(group)
    expect(groupsAsked(h, 0).sort()).to.deep.equal(active)

    const before = h.napcat.calls.length
    h.napcat.disconnect()
    await h.until(() => h.bot?.status !== Universal.Status.ONLINE, 'the bot to go offline')
    await h.reloadAdapter()
    // the bot that went away stopped its runtime: the next message starts it again, and the start pulls
    await h.napcat.groupMessage({ group: LIVE, user: 2001, text: 'back again' })
    await until(() => groupsAsked(h, before).length >= ACTIVE, 'the reconnect\'s pull', 30_000)
    await quiet(h)
    const asked = groupsAsked(h, before)
    expect(asked.length).to.be.at.most(ACTIVE)
    expect([...asked].sort()).to.deep.equal(active)
    // online again without a restart (RECONNECT → ONLINE): the running runtime pulls the same 50 (and LIVE, active now)
    const again = h.napcat.calls.length
    ;(h.app as any).emit('bot-status-updated', h.bot)
    await until(() => groupsAsked(h, again).length >= ACTIVE, 'the pull when the bot comes online', 30_000)
    await quiet(h)
    expect(groupsAsked(h, again).sort()).to.deep.equal(active)

    // a quiet conversation is pulled at its first message since the reconnect
    const dormant = group(1)
    await h.napcat.groupMessage({ group: dormant, user: 2002, text: 'missed while away', deliver: false })
    const mark = h.napcat.calls.length
    await h.napcat.groupMessage({ group: dormant, user: 2001, text: 'anyone here?' })
    await until(() => groupsAsked(h, mark).includes(dormant), 'the pull of the quiet group')
    await h.app.kotodama.received()
    await h.settled()
    const runtime = (await h.app.kotodama.list()).find(r => r.bot === BOT)!
    const facts = (await runtime.conversation(`group:${dormant}`)).entries.flatMap(e => e.type === 'fact' ? [e.fact.content] : [])
    expect(facts).to.deep.equal([`said in group:${dormant}`, 'missed while away', 'anyone here?'])
  })
})
