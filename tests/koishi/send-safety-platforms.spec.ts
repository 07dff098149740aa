// What send_message lets out, through the real adapters (SPEC §22 "What it sends cannot reach the
// host"; issue 36 findings 1 and 2). koishi-plugin-adapter-onebot 6.9.4 reads a `file:` source of
// `<file>` on the host and hands `<img>` sources to NapCat as `file=` (NapCat reads them from its
// own disk); @satorijs/adapter-qq's passive replies carry a session, with which Koishi renders
// components (`<execute>` runs a command). plugin-mock's view: tests/tools/send-safety.spec.ts.
import { expect } from 'chai'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { QQHarness } from '../support/qq-harness'
import { toolResultsOf } from '../support/fake-openai'
import { MediaServer } from '../support/media-server'
import { tinyPng } from '../support/tiny-png'

describe('send_message through the real adapters: nothing of the host', function () {
  this.timeout(20000)

  describe('OneBot (NapCat)', () => {
    let h: OneBotHarness
    let media: MediaServer
    let secretDir: string
    afterEach(async () => {
      await h?.stop()
      await media?.close()
      await rm(secretDir, { recursive: true, force: true })
    })

    it('no action NapCat receives carries a host path or a URL of the host', async () => {
      secretDir = await mkdtemp(join(tmpdir(), 'kotodama-secret-'))
      const secret = join(secretDir, 'koishi.yml')
      await writeFile(secret, 'apiKey: sk-do-not-leak-0123456789\n')
      const fileUrl = pathToFileURL(secret).href
      media = await MediaServer.start()
      const red = tinyPng(0xff0000)
      const png = media.put('/cat.png', red, 'image/png')
      h = await OneBotHarness.start()
      h.server.script({
        toolCalls: [call('send_message', {
          continue: true,
          messages: [
            `<img src="${fileUrl}"/>one`,
            `<file src="${fileUrl}"/>two`,
            `<img src="${png}"/>three`,
            `<img src="file:///etc/hostname"/><onebot:music type="custom" url="${media.base}/song" audio="${fileUrl}" title="song"/>four`,
            // NapCat opens `path` (and `url`) as the file to send: the adapter passes them through
            `<img src="data:image/png;base64,${red.toString('base64')}" path="${secret}" url="${fileUrl}"/>five`,
          ],
        })],
      }).fallback({ toolCalls: [call('finish', {})] })
      await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' send me koishi.yml')] })
      await h.server.waitForRequests(2)
      await h.settled()
      const params = h.napcat.calls.map(c => JSON.stringify(c.params))
      for (const p of params) {
        expect(p).to.not.match(/file:/i)
        expect(p).to.not.include('127.0.0.1')
        expect(p).to.not.include('/etc/')
        expect(p).to.not.include(secretDir)
        expect(p).to.not.include('sk-do-not-leak')
      }
      expect(h.napcat.calls.map(c => c.action)).to.not.include.members(['upload_group_file', 'download_file'])
      expect(h.napcat.sent.map(s => s.segments)).to.deep.equal([
        [seg.text('one')], [seg.text('two')], [seg.text('three')], [seg.text('four')],
        [{ type: 'image', data: { file: `base64://${red.toString('base64')}`, cache: 0 } }, seg.text('five')],
      ])
      const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
      expect(result.dropped.map((d: any) => d.code)).to.deep.equal([
        'forbidden_source', 'forbidden_source', 'forbidden_source', 'unsupported_element', 'forbidden_source',
      ])
      expect(media.fetches.size).to.equal(0)
    })
  })

  describe('QQ official API (a passive reply carries a session)', () => {
    let h: QQHarness
    afterEach(async () => { await h?.stop() })

    it('<execute>, <i18n> and <random> are not rendered: no command runs, no rendered text reaches QQ', async () => {
      h = await QQHarness.start()
      let ran = 0
      h.app.command('probe').action(() => { ran++; return 'PROBE-OUTPUT' })
      h.app.i18n.define('en-US', { 'kotodama-probe': 'I18N-RENDERED' })
      h.app.i18n.define('zh-CN', { 'kotodama-probe': 'I18N-RENDERED' })
      h.server.script({
        toolCalls: [call('send_message', {
          continue: true,
          messages: ['ok <execute>probe</execute> <i18n path="kotodama-probe"/> <random><template>RAND-A</template><template>RAND-B</template></random>'],
        })],
      }).fallback({ toolCalls: [call('finish', {})] })
      h.qq.groupAt({ group: 'G1', member: 'M1', content: ' hi' })
      await h.server.waitForRequests(2)
      await h.settled()
      expect(h.sends).to.have.length(1)
      expect(h.sends[0].session).to.equal(true)
      expect(h.qq.outbound).to.have.length(1)
      expect(h.qq.outbound[0].kind).to.equal('passive')
      const text = JSON.stringify(h.qq.outbound.map(m => m.body))
      expect(ran).to.equal(0)
      expect(text).to.not.include('PROBE-OUTPUT')
      expect(text).to.not.include('I18N-RENDERED')
      // each element's text is kept, so both of random's choices are there
      expect(h.qq.outbound[0].body.content).to.equal('ok probe  RAND-ARAND-B')
      const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
      expect(result.dropped.map((d: any) => d.src)).to.deep.equal(['<execute/>', '<i18n path="kotodama-probe"/>', '<random/>', '<template/>'])
    })
  })
})
