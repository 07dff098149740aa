// codemode — one model-written program composes tools in a QuickJS sandbox (SPEC §8).
import { z } from 'zod'
import type { CodemodeLimits } from '../config/types'
import type { HostTool, ProgramOutcome, RunOptions } from '../sandbox/types'
import { toolDeclarations } from '../sandbox/declarations'
import { prose } from '../util/prose'
import { presentProgram } from './codemode-output'
import type { Tool, ToolCallContext } from './types'
import DESCRIPTION from './codemode.txt'

/** Runs programs; the service's sandbox (one per plugin instance). */
export interface ProgramRunner {
  run(code: string, opts: RunOptions): Promise<ProgramOutcome>
}

function describe(tools: Map<string, Tool>, limits: CodemodeLimits): string {
  const declarations = toolDeclarations([...tools].map(([name, t]) => ({
    name, description: t.description, inputSchema: t.inputSchema, output: t.program?.output, omit: t.program?.omit,
  })))
  return prose(DESCRIPTION, {}, {
    seconds: Math.round(limits.timeoutMs / 1000), mebibytes: Math.round(limits.memoryLimitBytes / 1048576),
    calls: limits.maxToolCalls, declarations,
  })
}

const inputSchema = z.object({ code: z.string().min(1).describe('the program: the body of an async function') })

export function codemodeTool(sandboxTools: Map<string, Tool>, limits: CodemodeLimits, runner: ProgramRunner): Tool<{ code: string }, ProgramOutcome> {
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
      return runner.run(code, { tools, limits, signal: ctx.signal })
    },
    present: presentProgram,
  }
}
