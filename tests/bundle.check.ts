// Run by .ci/run after the build, not by `npm test` (which needs no build): the bundled plugin
// loads into Koishi, answers through the real provider, and its codemode worker starts from lib/.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import type { WorkerOptions } from 'node:worker_threads'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mock as nodeMock } from 'node:test'
import { App } from 'koishi'
import mock from '@koishijs/plugin-mock'
import { FakeOpenAI, toolResultsOf } from './support/fake-openai'
import { stdioServerConfig } from './support/mcp-http-server'

const plugin = require('..')
// the module object itself (an import would give a copy), to watch what workers start from
const workerThreads: typeof import('node:worker_threads') = require('node:worker_threads')

/** Koishi with plugin-mock (sends answered at once) and a fake model server, for the bundle. */
async function startApp() {
  const server = await FakeOpenAI.start()
  const dataDir = await mkdtemp(join(tmpdir(), 'kotodama-lib-'))
  const app = new App()
  const mockFork = app.plugin(mock)
  await app.start()
  nodeMock.method(app.bots[0], 'sendMessage', async () => ['sent'])
  const close = async () => {
    nodeMock.restoreAll()
    mockFork.dispose()
    await app.stop()
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return { server, dataDir, app, close }
}

describe('the built package (lib/)', () => {
  it('runs a codemode program from the bundle, in a worker started from lib/sandbox-worker.js', async () => {
    // record what the bundle starts its workers from (it reads Worker off the module at each use)
    const Original = workerThreads.Worker
    const started: unknown[] = []
    ;(workerThreads as { Worker: unknown }).Worker = class extends Original {
      constructor(file: string | URL, options?: WorkerOptions) {
        started.push(file)
        super(file, options)
      }
    }
    const { server, dataDir, app, close } = await startApp()
    app.plugin(plugin, {
      dataDir,
      models: [{ id: 'main', baseURL: server.baseURL, model: 'm', maxRetries: 0 }],
      profiles: [{ id: 'p', model: 'main', claims: [{ bot: '*', channels: ['*'] }], codemode: { enabled: true } }],
    })
    server.script(
      { toolCalls: [{ name: 'codemode', arguments: { code: 'return [1, 2, 3].map(x => x * 2)' } }] },
      { toolCalls: [{ name: 'finish', arguments: {} }] },
    )
    try {
      await app.mock.client('bob').receive('go')
      await server.waitForRequests(2)
      expect(JSON.parse(toolResultsOf(server.requests[1]).at(-1).content)).to.deep.equal([2, 4, 6])
      expect(started.length).to.be.greaterThan(0)
      expect(started.every((f) => f === join(__dirname, '..', 'lib', 'sandbox-worker.js'))).to.equal(true, String(started))
    } finally {
      ;(workerThreads as { Worker: unknown }).Worker = Original
      await close()
    }
  })

  it('calls an MCP server\'s tool and reads its resource from the bundle; disposing ends the child', async () => {
    const { server, dataDir, app, close } = await startApp()
    const fork = app.plugin(plugin, {
      dataDir,
      models: [{ id: 'main', baseURL: server.baseURL, model: 'm', maxRetries: 0 }],
      mcp: { servers: [stdioServerConfig('t')] },
      profiles: [{ id: 'p', model: 'main', claims: [{ bot: '*', channels: ['*'] }], mcp: ['t'] }],
    })
    server.script(
      { toolCalls: [{ name: 't_echo', arguments: { text: 'from lib' } }, { name: 'read', arguments: { url: 'mcp://t/note://notes/hello.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: {} }] },
    )
    let pid: number | undefined
    try {
      for (let i = 0; (app as any).kotodama.mcpStatus()[0].state !== 'ready'; i++) {
        if (i > 1000) throw new Error('the MCP server did not start')
        await new Promise(r => setTimeout(r, 10))
      }
      pid = (app as any).kotodama.mcpStatus()[0].pid
      await app.mock.client('bob').receive('go')
      await server.waitForRequests(2)
      expect(toolResultsOf(server.requests[1]).map(r => r.content)).to.deep.equal(['echo: from lib', 'hello from a resource\nsecond line'])
    } finally {
      fork.dispose()
      for (let i = 0; pid && i < 500; i++) {
        try { process.kill(pid, 0) } catch { pid = undefined; break }
        await new Promise(r => setTimeout(r, 10))
      }
      await close()
    }
    expect(pid, 'the child process outlived the plugin').to.equal(undefined)
  })
})
