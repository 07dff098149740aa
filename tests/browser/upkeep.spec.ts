// The console's upkeep view in a real browser (SPEC §26): the demo with a runtime home whose
// upkeep/proposals.json holds changes of two conversations (waiting, applied, rejected), their
// histories and notes; each change with its diff, reason and the messages it rests on; filters by
// conversation and person; Accept applies one to the note, Reject keeps the note as it was; the last
// runs. A plugin-mock bot stands for the
// platform's. Debian's chromium driven by playwright-core. Screenshots test-output/browser/upkeep.png, upkeep-zh.png.
import { expect } from 'chai'
import mock from '@koishijs/plugin-mock'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { SHOTS, demoInBrowser, language } from '../support/browser-page'
import { runtimeHome } from '../../src/runtime/runtime'
import { historyUrl } from '../../src/recall/history-url'
import { safeName } from '../../src/util/safe-name'
import { WRITERS_DIR } from '../../src/people/writers'
import { changeKey, type Proposal } from '../../src/upkeep/proposal'
import { PROPOSALS_FILE } from '../../src/upkeep/proposal-book'
import { STATE_FILE } from '../../src/upkeep/state'
import type { RunReport } from '../../src/upkeep/run-report'
import type { WriteRequest } from '../../src/resources/types'

// a connected bot: a decision starts its runtime (applying needs memory's writer)
const BOT = 'mock:upkeep'
const MIN = 60_000
const MIA = 'local://memory/people/mock/mia.md'
const LEO = 'local://memory/people/mock/leo.md'
const CLUB = 'local://memory/jazz-club.md'

describe('console page in a real browser: the upkeep view', function () {
  this.timeout(60000)
  let home: string
  const note = (url: string) => readFile(join(home, 'local', url.slice('local://'.length)), 'utf8')
  const s = demoInBrowser({ prefix: 'upkeep', demo: { budgets: { timezone: 'Europe/Paris' }, upkeep: { enabled: true } }, seed: async dataDir => {
    home = runtimeHome(join(dataDir, 'kotodama'), 'demo', BOT)
    const now = Date.now()
    const people = { mia: { id: 'mia', name: 'Mia' }, leo: { id: 'leo', name: 'Leo' } }
    // the messages the proposals rest on, as the conversations stored them
    const said: [string, 'mia' | 'leo', string, number][] = [
      ['group:jazz', 'leo', 'I bring my double bass on Fridays; the bar opens a bit later now.', 1600],
      ['group:jazz', 'leo', 'Sessions moved to Friday nights from this week.', 300],
      ['group:jazz', 'mia', 'I moved to Paris in November, finally closer to the club!', 240],
      ['group:jazz', 'leo', 'Mia still owes me that Coltrane record.', 200],
      ['private:mia', 'mia', 'Please don\'t tell the others, but I am leaving the band in spring.', 100],
    ]
    const ids = new Map<string, string>()
    for (const [i, [channel, who, content, ago]] of said.entries()) {
      const id = String(7001 + i)
      ids.set(content, id)
      const at = now - ago * MIN
      const line = JSON.stringify({ type: 'fact', at, fact: {
        id, at, bot: BOT, channel, ...channel.startsWith('group:') ? { guildId: channel.slice(6) } : {}, direct: channel.startsWith('private:'),
        user: people[who], content, mentionsBot: false, quotesBot: false,
      } })
      const file = join(home, 'conversations', `${safeName(channel)}.jsonl`)
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, line + '\n', { flag: 'a' })
    }
    // who wrote where, as the people part recorded it (a note is written only where its person wrote)
    await mkdir(join(home, WRITERS_DIR), { recursive: true })
    for (const channel of ['group:jazz', 'private:mia']) {
      const notes = [...new Set(said.filter(x => x[0] === channel).map(x => JSON.stringify(`memory/people/mock/${x[1]}.md`)))]
      await writeFile(join(home, WRITERS_DIR, `${safeName(channel)}.jsonl`), notes.join('\n') + '\n')
    }
    const src = (channel: string, content: string) => `${historyUrl(channel)}/${ids.get(content)}`
    const [bass, friday, paris, record, leaving] = said.map(([channel, , content]) => src(channel, content))
    await mkdir(join(home, 'local', 'memory', 'people', 'mock'), { recursive: true })
    await writeFile(join(home, 'local', MIA.slice(8)), '# Mia\nPlays the drums.\nLives in Lyon.\n')
    await writeFile(join(home, 'local', CLUB.slice(8)), '# The jazz club\nSessions on Thursdays, 20:00.\n')
    let n = 0
    const proposal = (conversation: string, url: string, change: WriteRequest, reason: string, sources: string[], authors: ('mia' | 'leo')[],
      state: Proposal['state'], ago: number, extra: Partial<Proposal> = {}): Proposal => ({
      id: `u${++n}`, conversation, at: now - ago * MIN, url, change, reason, sources, authors: authors.map(a => people[a]), state,
      key: changeKey(url, change), ...conversation.startsWith('private:') ? { chat: { channel: conversation, direct: true, user: 'mia' } } : {}, ...extra,
    })
    const book = [
      proposal('group:jazz', LEO, { append: 'Plays the double bass.\n' }, 'He said he brings his bass on Fridays.', [bass], ['leo'], 'applied', 1500,
        { decided: { at: now - 1400 * MIN, by: 'console' } }),
      proposal('group:jazz', CLUB, { append: 'Dress code: none.\n' }, 'A guess from the chat.', [bass], ['leo'], 'rejected', 1500,
        { decided: { at: now - 1390 * MIN, by: 'command:mock:owner' } }),
      proposal('group:jazz', CLUB, { edit: { find: 'Bar opens at 19:00.', replace: 'Bar opens at 19:30.' } }, 'Leo said the bar opens later.',
        [bass], ['leo'], 'failed', 1500, { decided: { at: now - 1380 * MIN, by: 'console' },
          error: { code: 'no_match', message: 'no text matches "Bar opens at 19:00." in local://memory/jazz-club.md' } }),
      proposal('group:jazz', MIA, { content: '# Mia\nPlays the drums.\nLives in Paris (moved in November).\n' },
        'Mia said she moved to Paris in November; the note still says Lyon.', [paris], ['mia'], 'pending', 30),
      proposal('group:jazz', LEO, { append: 'Says Mia owes him a Coltrane record (his claim).\n' },
        'Leo\'s claim about Mia, kept as his claim.', [record], ['leo'], 'pending', 29),
      proposal('group:jazz', CLUB, { edit: { find: 'Sessions on Thursdays, 20:00.', replace: 'Sessions on Friday nights.' } },
        'Leo announced the new day.', [friday], ['leo'], 'pending', 28),
      proposal('private:mia', MIA, { append: 'Plans to leave the band in spring (told in private).\n' },
        'She told me in private; it goes to her private section.', [leaving], ['mia'], 'pending', 27),
    ]
    await mkdir(join(home, 'upkeep'), { recursive: true })
    await writeFile(join(home, PROPOSALS_FILE), JSON.stringify({ proposals: Object.fromEntries(book.map(p => [p.id, p])) }))
    const run = (reason: string, ago: number, r: Partial<RunReport>): RunReport => ({
      reason, startedAt: now - ago * MIN, endedAt: now - ago * MIN + 40_000, conversations: 2, messages: 0, requests: 0,
      promptTokens: 0, cachedTokens: 0, proposed: 0, applied: 0, ...r,
    })
    const runs = [
      run('schedule', 1500, { messages: 812, requests: 6, promptTokens: 24_310, cachedTokens: 17_900, proposed: 2 }),
      run('command', 31, { messages: 4, requests: 2, promptTokens: 5_120, cachedTokens: 2_048, proposed: 4, stopped: 'budget', why: 'the daily budget of demo is spent' }),
    ]
    await writeFile(join(home, STATE_FILE), JSON.stringify({ since: now - 3 * 1440 * MIN, lastRun: now - 31 * MIN, through: {}, runs }))
  } })

  describe('with its bot connected', () => {
    // disposed before the demo stops (plugin-mock's dispose throws when stopped with the app, koishijs/koishi#1525)
    let bot: { dispose(): void } | undefined
    before(() => { bot = s.demo.app.plugin(mock, { selfId: 'upkeep' }) })
    after(() => bot?.dispose())

    const open = async () => {
      await s.page.goto(`${s.demo.url}/kotodama`)
      await s.page.locator('.kd-runtime').filter({ hasText: BOT }).click()
      await s.page.locator('.kd-upkeep-pick').click()
      await s.page.locator('.kd-proposal').first().waitFor()
    }
    const card = (text: string) => s.page.locator('.kd-proposal').filter({ hasText: text })

    it('shows each change with its diff and sources; filters; Accept applies one, Reject keeps the note', async () => {
      await s.page.goto(`${s.demo.url}/kotodama`)
      await language(s.page, 'en-US')
      await open()
      expect(await s.page.locator('.kd-upkeep-waiting').innerText()).to.equal('4 changes wait')
      // what waits first, oldest first (a failed one may be accepted again); then the decided ones, newest first
      expect(await s.page.locator('.kd-proposal-state').allInnerTexts()).to.deep.equal(['failed', 'waits', 'waits', 'waits', 'waits', 'rejected', 'applied'])
      expect(await card('bar opens later.').innerText()).to.include('The write failed (no_match)')
      expect(await card('bar opens later.').locator('.kd-accept').count()).to.equal(1)
      expect(await card('bar opens later.').locator('.kd-reject').count()).to.equal(0)
      const mia = card('moved to Paris')
      expect(await mia.locator('.kd-diff-del').allInnerTexts()).to.deep.equal(['- Lives in Lyon.'])
      expect(await mia.locator('.kd-diff-add').allInnerTexts()).to.deep.equal(['+ Lives in Paris (moved in November).'])
      expect(await mia.locator('.kd-source').innerText()).to.match(/\d\d:\d\d Mia: I moved to Paris in November, finally closer to the club!/)
      expect(await card('new day').locator('.kd-diff').innerText()).to.equal('- Sessions on Thursdays, 20:00.\n+ Sessions on Friday nights.')
      expect(await card('Dress code').innerText()).to.include('rejected by mock:owner on')
      // by person: Leo's claims and announcements; by conversation: the private chat's one
      await s.page.locator('.kd-upkeep-person').selectOption('leo')
      expect(await s.page.locator('.kd-proposal .kd-proposal-reason').allInnerTexts()).to.deep.equal([
        'Leo said the bar opens later.', 'Leo\'s claim about Mia, kept as his claim.', 'Leo announced the new day.', 'A guess from the chat.',
        'He said he brings his bass on Fridays.',
      ])
      await s.page.locator('.kd-upkeep-person').selectOption('')
      await s.page.locator('.kd-upkeep-conversation').selectOption('private:mia')
      expect(await s.page.locator('.kd-proposal .kd-proposal-reason').allInnerTexts()).to.deep.equal(['She told me in private; it goes to her private section.'])
      await s.page.locator('.kd-upkeep-conversation').selectOption('')
      expect(await s.page.locator('.kd-upkeep-run-row').first().innerText()).to.include('command').and.include('a budget was spent')
      await s.page.mouse.move(1300, 880)
      await s.page.screenshot({ path: join(SHOTS, 'upkeep.png') })

      await mia.locator('.kd-accept').click()
      await s.page.getByText('Change #u4 applied').waitFor()
      expect(await note(MIA)).to.equal('# Mia\nPlays the drums.\nLives in Paris (moved in November).\n')
      await mia.locator('.kd-proposal-decided').waitFor()
      expect(await mia.innerText()).to.include('the note\'s new text:').and.include('accepted by the console on')
      await card('Coltrane').locator('.kd-reject').click()
      await s.page.getByText('Change #u5 rejected').waitFor()
      await card('Coltrane').locator('.kd-reject').waitFor({ state: 'detached' })
      expect(await note(LEO).catch(() => 'none')).to.equal('none')
      const stored = JSON.parse(await readFile(join(home, PROPOSALS_FILE), 'utf8')).proposals
      expect([stored.u4.state, stored.u4.decided.by, stored.u5.state]).to.deep.equal(['applied', 'console', 'rejected'])
      expect(await s.page.locator('.kd-upkeep-waiting').innerText()).to.equal('2 changes wait')
    })

    it('in Chinese', async () => {
      await language(s.page, 'zh-CN')
      await open()
      expect(await s.page.locator('.kd-upkeep-waiting').innerText()).to.equal('2 项修改等待审阅')
      expect(await card('new day').innerText()).to.include('依据').and.include('待审阅')
      await s.page.mouse.move(1300, 880)
      await s.page.screenshot({ path: join(SHOTS, 'upkeep-zh.png') })
      // the last runs, below the changes
      await s.page.locator('.kd-upkeep-runs').scrollIntoViewIfNeeded()
      await s.page.screenshot({ path: join(SHOTS, 'upkeep-zh-runs.png') })
    })

    it('Run now: the button waits while the run is under way, then its figures are shown and it heads the runs', async () => {
      await language(s.page, 'en-US')
      await open()
      const button = s.page.locator('.kd-upkeep-run')
      expect(await button.innerText()).to.equal('Run now')
      await button.click()
      await s.page.getByText(/^Upkeep ran: \d+ new messages, \d+ changes proposed, \d+ applied$/).waitFor()
      expect(await button.innerText()).to.equal('Run now')
      expect(await button.isEnabled()).to.equal(true)
      expect(await s.page.locator('.kd-upkeep-run-row').first().innerText()).to.include('console').and.include('to the end')
      expect(await s.page.locator('.kd-upkeep-underway').count()).to.equal(0)
    })
  })
})
