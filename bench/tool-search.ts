// 14. Many tools (SPEC §18). The 200 tools of tests/support/many-tools.ts (14 MCP servers), made
// as MCP tools are (src/mcp/tool.ts) and registered in a real Runtime whose in-process model
// records every request:
// - request size: the fixed part of the first request (system prompt + tool declarations as the
//   provider gets them) with the 200 tools searched, against the same profile without them, and
//   with all 200 declared (what kotodama sent before SPEC §18); the same in codemode; the request
//   after one search (five tools appended);
// - search quality: the 50 task descriptions of tool-search-tasks.json (paraphrases, synonyms,
//   Chinese), the expected tool in the top 5;
// - search latency over 1,000 tools (the 200, five times under other server ids), and the time to
//   build the index (once per catalog version).
import { join } from 'node:path'
import { prepareToolsAndToolChoice } from 'ai/internal'
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider'
import { mcpInputSchema } from '../src/mcp/input-schema'
import { mcpTool } from '../src/mcp/tool'
import type { McpConnection } from '../src/mcp/connection'
import { offerTools } from '../src/model/call-model'
import { toolDeclarations } from '../src/sandbox/declarations'
import { ToolIndex } from '../src/tool-search'
import type { Tool } from '../src/contract/tool'
import { DOMAINS, toolDefs } from '../tests/support/many-tools'
import { median, now, percentile, type Mode, type Row } from './measure'
import { benchRuntime, directFact, turn, usage } from './runtime-setup'
import TASKS from './tool-search-tasks.json'

const TARGET_RATIO = 1.3
const TARGET_TOP5 = 0.9

/** Estimated tokens: 4 ASCII characters a token, one a token for anything else (CJK). */
function tokens(text: string): number {
  let ascii = 0
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 128) ascii++
  return Math.round(ascii / 4 + (text.length - ascii))
}

/** The 200 tools as MCP tools of servers named `<domain><suffix>`. */
function manyTools(suffix = ''): Map<string, Tool> {
  const tools = new Map<string, Tool>()
  for (const d of DOMAINS) {
    const connection = { id: `${d.id}${suffix}`, instructions: d.instructions, call: async () => ({ content: [{ type: 'text', text: 'ok' }] }) } as unknown as McpConnection
    for (const def of toolDefs(d)) tools.set(`${d.id}${suffix}_${def.name}`, mcpTool(connection, def as any, mcpInputSchema(def.inputSchema)))
  }
  return tools
}

interface Sent { system: string; tools: string }

/** A model that records each request and answers from a script (then `finish`). */
function recordingModel(script: LanguageModelV3Content[][], out: Sent[]): LanguageModelV3 {
  let id = 0
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate(o: LanguageModelV3CallOptions) {
      const [system] = o.prompt
      out.push({ system: String(system.content), tools: JSON.stringify(o.tools ?? []) })
      const content = script.shift() ?? [{ type: 'tool-call', toolCallId: `f${++id}`, toolName: 'finish', input: '{}' }]
      return { content, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [] }
    },
    async doStream() {
      throw new Error('the bench model does not stream')
    },
  }
}

/** One turn of a runtime with `tools` registered; the requests it made. */
async function requests(dir: string, o: { tools?: Map<string, Tool>; profile?: Record<string, unknown>; script?: LanguageModelV3Content[][] }): Promise<Sent[]> {
  const sent: Sent[] = []
  const profile = { timing: { debounceMs: 0, debounceMaxMs: 0 }, ...o.profile }
  const runtime = await benchRuntime({ dataDir: dir, model: recordingModel(o.script ?? [], sent), profile })
  try {
    for (const [name, tool] of o.tools ?? []) runtime.options.extensions.addTool(name, () => tool)
    await turn(runtime, directFact(1))
    await runtime.written()
  } finally {
    await runtime.stop()
  }
  return sent
}

const fixed = (s: Sent) => tokens(s.system) + tokens(s.tools)

/**
 * The first request as kotodama sent it before SPEC §18 (every tool declared, no sources in the
 * system prompt): the request without MCP tools, their declarations added as the provider gets
 * them. Since SPEC §18 no configuration declares 200 tools of 57,000 units (the 20,000-unit rule).
 */
async function allDeclared(none: Sent, tools: Map<string, Tool>): Promise<Sent> {
  const { tools: prepared } = await prepareToolsAndToolChoice({ tools: offerTools(tools), toolChoice: undefined, activeTools: undefined } as any)
  return { system: none.system, tools: JSON.stringify([...JSON.parse(none.tools), ...prepared as unknown[]]) }
}

/** The same in codemode: the codemode tool's description holds the 200 declarations too. */
function allDeclaredInCode(none: Sent, tools: Map<string, Tool>): Sent {
  const declarations = toolDeclarations([...tools].map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, output: t.program?.output })))
  return { system: none.system, tools: none.tools + JSON.stringify(declarations).slice(1, -1) }
}

async function requestSize(dir: string): Promise<Row[]> {
  const tools = manyTools()
  const search = [[{ type: 'tool-call' as const, toolCallId: 's1', toolName: 'tool_search', input: JSON.stringify({ query: 'push my meeting to Thursday' }) }]]
  const [none] = await requests(join(dir, 'none'), {})
  const [searched, afterSearch] = await requests(join(dir, 'searched'), { tools, script: search })
  const declared = await allDeclared(none, tools)
  const code = { codemode: { enabled: true, direct: [] as string[] } }
  const [codeNone] = await requests(join(dir, 'code-none'), { profile: code })
  const [codeSearched] = await requests(join(dir, 'code-searched'), { tools, profile: code })
  const codeDeclared = allDeclaredInCode(codeNone, tools)
  const parts = (s: Sent) => `system ${tokens(s.system)} + tools ${tokens(s.tools)}`
  const ratio = fixed(searched) / fixed(none)
  return [
    {
      benchmark: '14 request size, 200 MCP tools searched (system prompt + tools, est. tokens)', figure: fixed(searched), unit: 'tokens',
      baseline: fixed(none), baselineLabel: 'no MCP tools', ratio, target: `ratio ≤ ${TARGET_RATIO}`, pass: ratio <= TARGET_RATIO,
      note: `${parts(searched)} (no tools: ${parts(none)}); 4 ASCII characters a token, 1 a token for CJK; the first request of a turn, default profile`,
    },
    {
      benchmark: '14 request size, the same 200 tools all declared (before SPEC §18, informational)', figure: fixed(declared), unit: 'tokens',
      baseline: fixed(none), baselineLabel: 'no MCP tools', ratio: fixed(declared) / fixed(none),
      note: `${parts(declared)}; searching saves ${fixed(declared) - fixed(searched)} tokens a request (${(fixed(declared) / fixed(searched)).toFixed(1)}× smaller)`,
    },
    {
      benchmark: '14 request size after one search (5 tools appended, informational)', figure: fixed(afterSearch), unit: 'tokens',
      baseline: fixed(none), baselineLabel: 'no MCP tools', ratio: fixed(afterSearch) / fixed(none),
      note: `${parts(afterSearch)}; the first request's declarations are its prefix: ${afterSearch.tools.startsWith(searched.tools.slice(0, -1)) ? 'yes' : 'NO'}`,
    },
    {
      benchmark: '14 request size in codemode, 200 tools searched (informational)', figure: fixed(codeSearched), unit: 'tokens',
      baseline: fixed(codeNone), baselineLabel: 'no MCP tools', ratio: fixed(codeSearched) / fixed(codeNone),
      note: `${parts(codeSearched)}; all 200 declared in the codemode tool: ${fixed(codeDeclared)} tokens (${(fixed(codeDeclared) / fixed(codeNone)).toFixed(2)}×)`,
    },
  ]
}

function searchQuality(): Row[] {
  const index = new ToolIndex(manyTools())
  const misses: string[] = []
  let top1 = 0
  let top5 = 0
  const byKind = new Map<string, { n: number; hit: number }>()
  for (const t of TASKS as { kind: string; task: string; tool: string }[]) {
    const found = index.find(t.task, 5).map(h => h.name)
    const at = found.indexOf(t.tool)
    const k = byKind.get(t.kind) ?? { n: 0, hit: 0 }
    byKind.set(t.kind, k)
    k.n++
    if (at >= 0) {
      top5++
      k.hit++
    } else misses.push(`"${t.task}" → ${t.tool} (got ${found.slice(0, 3).join(', ')})`)
    if (at === 0) top1++
  }
  const share = top5 / TASKS.length
  return [{
    benchmark: `14 tool_search quality: right tool in the top 5 (${TASKS.length} tasks, 200 tools)`, figure: share, unit: '',
    target: `≥ ${TARGET_TOP5}`, pass: share >= TARGET_TOP5,
    note: `top 1: ${top1} of ${TASKS.length}; by kind: ${[...byKind].map(([k, v]) => `${k} ${v.hit}/${v.n}`).join(', ')}; missed: ${misses.join('; ') || 'none'}`,
  }]
}

function searchLatency(mode: Mode): Row[] {
  const tools = new Map<string, Tool>()
  for (const suffix of ['', '_eu', '_us', '_work', '_home']) for (const [name, tool] of manyTools(suffix)) tools.set(name, tool)
  const builds: number[] = []
  let index!: ToolIndex
  for (let i = 0; i < (mode.full ? 20 : 5); i++) {
    const t = now()
    index = new ToolIndex(tools)
    builds.push(now() - t)
  }
  const queries = (TASKS as { task: string }[]).map(t => t.task)
  for (const q of queries) index.find(q, 5)   // warm-up
  const times: number[] = []
  for (let round = 0; round < (mode.full ? 40 : 10); round++) {
    for (const q of queries) {
      const t = now()
      index.find(q, 5)
      times.push(now() - t)
    }
  }
  return [{
    benchmark: `14 tool_search latency over ${index.size} tools (one query, median)`, figure: median(times), unit: 'ms',
    note: `p95 ${percentile(times, 95).toFixed(2)} ms over ${times.length} queries; building the index (once per catalog version) ${median(builds).toFixed(0)} ms`,
  }]
}

export async function toolSearch(mode: Mode): Promise<Row[]> {
  return [...await requestSize(join(mode.tmp, 'tool-search')), ...searchQuality(), ...searchLatency(mode)]
}
