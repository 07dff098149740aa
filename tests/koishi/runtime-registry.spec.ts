// The service's runtimes stop with the plugin (issue 37, defect 6): a runtime that fails to stop
// is logged with its profile and bot, not swallowed, and the others still stop.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'

describe('runtime registry', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a runtime that fails to stop is logged with its profile and bot', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    const [runtime] = await h.app.kotodama.list()
    const stop = runtime.stop.bind(runtime)
    runtime.stop = async () => {
      await stop()
      throw new Error('the usage file could not be written')
    }
    h.fork.dispose()
    await h.until(() => h.warnings().some(w => w.includes('did not stop')), 'the log line')
    expect(h.warnings()).to.include('profile neko on mock:514 did not stop cleanly: the usage file could not be written')
  })
})
