// Every log line goes through the masking log (SPEC §10, §22; issue 36 finding 5): a configured
// secret that reaches the log by the platform's refusal of a send, or by the console's sticker view,
// comes out as ***.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { registerStickers } from '../../src/koishi/console/stickers'
import { runtimeHome } from '../../src/runtime/runtime'
import { Harness, call } from '../support/harness'
import { captureListeners } from '../support/console-listeners'
import { tinyPng } from '../support/tiny-png'

const SECRET = 'sk-live-0123456789abcdef'

describe('log lines mask configured secrets (SPEC §22)', function () {
  this.timeout(15000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const logged = () => h.logs.map(l => l.text).join('\n')

  it('a send the platform refuses in words that echo the API key', async () => {
    h = await Harness.start({ model: { apiKey: SECRET }, failSend: { at: 0, message: `bad request: Authorization Bearer ${SECRET}` } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['hello'] })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hi')
    await h.server.waitForRequests(2)
    await h.settled()
    await h.until(() => logged().includes('was refused'), 'the refusal logged')
    expect(logged()).to.include('bad request: Authorization Bearer ***').and.not.include(SECRET)
  })

  it('the console\'s sticker view logging a sticker whose name holds the key', async () => {
    h = await Harness.start({ model: { apiKey: SECRET }, profile: { stickers: { enabled: true } } })
    const dir = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local', 'stickers')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${SECRET}.png`), tinyPng(1))
    const { send } = captureListeners(h.app, registerStickers)
    expect(await send('kotodama/sticker-state', 'neko', 'mock:514', SECRET, 'banned')).to.equal(true)
    await h.until(() => logged().includes('stickers: the owner set'), 'the change logged')
    expect(logged()).to.include('***.png to banned').and.not.include(SECRET)
  })
})
