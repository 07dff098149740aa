// 9. One MCP tool call through the plugin (the input check, the server's connection, the result
// through the unified exit) against the same call made with the SDK's client directly. Each side
// talks to its own child process running the same stdio test server.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { exitToolResult } from '../src/exit/tool-output'
import { McpManager } from '../src/mcp'
import { ArtifactStore } from '../src/resources/schemes/artifact-store'
import { AssetStore } from '../src/resources/schemes/asset-store'
import type { ToolFactory } from '../src/tools/types'
import type { RuntimeView } from '../src/tools/types'
import type { Tool, ToolCallContext } from '../src/contract/tool'
import { systemClock } from '../src/util/clock'
import { stdioServerConfig } from '../tests/support/mcp-http-server'
import { interleave, median, percentile, type Mode, type Row } from './measure'

const quiet = { debug() {}, info() {}, warn() {}, error() {} }

export async function mcpCall(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'mcp')
  await mkdir(dir, { recursive: true })
  const config = stdioServerConfig('bench') as any
  const factories = new Map<string, ToolFactory>()
  const manager = new McpManager([config], {
    logger: quiet, clock: systemClock, addTool: (name, f) => { factories.set(name, f); return () => factories.delete(name) },
  })
  const client = new Client({ name: 'bench', version: '1' })
  try {
    manager.start()
    await client.connect(new StdioClientTransport({ command: config.command, args: config.args, stderr: 'ignore' }))
    // the first call waits for the server to be ready
    await manager.connection('bench').call('echo', { text: 'warm' })
    const view = { profile: { mcp: ['bench'] } } as unknown as RuntimeView
    const tool = factories.get('bench_echo')(view) as Tool
    const stores = { artifacts: new ArtifactStore(join(dir, 'artifacts')), assets: new AssetStore(join(dir, 'assets')) }
    const turn = { number: 1, wokeAt: 0 }
    const input = { text: 'hello from the bench' }
    let n = 0
    const subjects = {
      plugin: async () => {
        const parsed = tool.inputSchema.safeParse(input)
        if (!parsed.success) throw new Error('bad input')
        const ctx: ToolCallContext = { callId: `c${++n}`, fromProgram: false, signal: new AbortController().signal, turn }
        const output = await tool.execute(parsed.data, ctx)
        const exit = await exitToolResult(tool, input, output, { tool: 'bench_echo', callId: ctx.callId, stores })
        if (exit.output.type !== 'text' || exit.output.value !== 'echo: hello from the bench') throw new Error(`unexpected ${JSON.stringify(exit.output)}`)
      },
      direct: async () => {
        const r: any = await client.callTool({ name: 'echo', arguments: input })
        if (r.content[0].text !== 'echo: hello from the bench') throw new Error('unexpected result')
      },
    }
    const reps = mode.full ? 2000 : 500
    const t = await interleave(subjects, reps, 50)
    const plugin = median(t.plugin)
    const direct = median(t.direct)
    return [{
      benchmark: '9 MCP tool call through the plugin vs the SDK client directly (stdio, median)', figure: plugin, unit: 'ms',
      baseline: direct, baselineLabel: 'client.callTool', ratio: plugin / direct, target: 'ratio ≤ 1.5', pass: plugin / direct <= 1.5,
      note: `${reps} calls each, alternating; p90 ${percentile(t.plugin, 90).toFixed(3)} ms vs ${percentile(t.direct, 90).toFixed(3)} ms; `
        + `the plugin adds ${((plugin - direct) * 1000).toFixed(0)} µs a call (input check, readiness, result through the unified exit)`,
    }]
  } finally {
    await client.close()
    await manager.stop()
  }
}
