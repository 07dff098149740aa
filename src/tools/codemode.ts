// codemode — one model-written program composes tools in a QuickJS sandbox (SPEC §8).
import { z } from 'zod'
import type { CodemodeLimits } from '../config/types'
import { runProgram, type HostTool, type ProgramOutcome } from '../sandbox'
import { toolDeclarations } from '../sandbox/declarations'
import type { Tool, ToolCallContext } from './types'

const READ_RESULT = `{ kind: 'text', url: string, text: string, mediaType: string, source: { url: string, offset: number, line: number, column: number }, range: { startLine: number, endLine?: number, totalLines?: number } }
    | { kind: 'file', url: string, mediaType: string, data: string /* base64 */, byteLength: number, filename?: string, width?: number, height?: number }
    | { kind: 'meta', url: string, meta: Record<string, any> } | { kind: 'answer', url: string, question: string, text: string, model: string }
    | { kind: 'error', url: string, error: { code: string, message: string } }`
const SEND_RESULT = `{ ok: true, ids: string[], dropped?: { src: string, code: string, message: string }[] } | { ok: false, error: { name: string, message: string }, sent: string[], failedAt: number }`

const EXAMPLE = `const [a, b] = await Promise.all([tools.read({ url: 'local://a.txt' }), tools.read({ url: 'local://b.txt' })])
const lines = [a, b].map(r => r.kind === 'text' ? r.text.split('\\n').length : 0)
return { lines }`

function describe(tools: Map<string, Tool>, limits: CodemodeLimits): string {
  const declared = toolDeclarations([...tools].map(([name, t]) => ({
    name, description: t.description, inputSchema: t.inputSchema,
    output: name === 'read' ? READ_RESULT : name === 'send_message' ? SEND_RESULT : undefined,
    // a program sets lifetimes on its returned attachments (SPEC §4.2)
    ...(name === 'read' ? { omit: ['lifetime'] } : {}),
  })))
  return `Run a JavaScript program in a sandbox: the body of an async function (top-level await and return work). Call tools with \`await tools.name(input)\`; run several at once with Promise.all. A failing tool throws \`tool "<name>" failed: <message>\`, which you may catch.
- Return JSON: it is what you see next, so return only what you need. console.log output is shown after it.
- read returns the whole requested range (no pages). send_message works here too and never ends your turn.
- To pass images or files on, put them (read file results, or {type:'image', data, mimeType}) in a top-level \`attachments\` array of the returned object, each with an optional lifetime: once (default), recent or retain. Media you do not return are dropped.
- No state survives between programs. No require, process, timers, network or files except through tools. Limits: ${Math.round(limits.timeoutMs / 1000)} s, ${Math.round(limits.memoryLimitBytes / 1048576)} MiB, ${limits.maxToolCalls} tool calls.

${declared}

Example:
${EXAMPLE}`
}

const inputSchema = z.object({ code: z.string().min(1).describe('the program: the body of an async function') })

export function codemodeTool(sandboxTools: Map<string, Tool>, limits: CodemodeLimits): Tool<{ code: string }, ProgramOutcome> {
  return {
    description: describe(sandboxTools, limits),
    inputSchema,
    async execute({ code }, ctx) {
      let n = 0
      const tools: Record<string, HostTool> = {}
      for (const [name, tool] of sandboxTools) {
        tools[name] = async (input, { signal }) => {
          const parsed = await tool.inputSchema.safeParseAsync(input ?? {})
          if (!parsed.success) throw new Error(`invalid input: ${parsed.error.issues.map(i => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`)
          const sub: ToolCallContext = { callId: `${ctx.callId}/${++n}`, fromProgram: true, signal, turn: ctx.turn }
          return tool.execute(parsed.data, sub)
        }
      }
      return runProgram(code, { tools, limits, signal: ctx.signal })
    },
  }
}
