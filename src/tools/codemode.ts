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

/** A host call the program never saw settle: what it did after the program ended. */
export interface UnfinishedCall {
  tool: string
  result?: unknown
  error?: string
}

export type CodemodeOutcome = ProgramOutcome & { unfinished?: UnfinishedCall[] }

/** How long an ended program's aborted host calls get to report what they did. */
const UNFINISHED_GRACE_MS = 2000

export function codemodeTool(sandboxTools: Map<string, Tool>, limits: CodemodeLimits, runner: ProgramRunner): Tool<{ code: string }, CodemodeOutcome> {
  return {
    description: describe(sandboxTools, limits),
    inputSchema,
    async execute({ code }, ctx) {
      let n = 0
      const tools: Record<string, HostTool> = {}
      const running = new Map<number, { tool: string; done: Promise<UnfinishedCall> }>()
      for (const [name, tool] of sandboxTools) {
        tools[name] = async (input, { signal }) => {
          const parsed = await tool.inputSchema.safeParseAsync(input ?? {})
          if (!parsed.success) throw new Error(`invalid input: ${parsed.error.issues.map(i => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`)
          const id = ++n
          const sub: ToolCallContext = { callId: `${ctx.callId}/${id}`, fromProgram: true, signal, turn: ctx.turn }
          const call = tool.execute(parsed.data, sub)
          running.set(id, { tool: name, done: call.then(result => ({ tool: name, result }), e => ({ tool: name, error: e?.message ?? String(e) })) })
          try {
            return await call
          } finally {
            running.delete(id)
          }
        }
      }
      const outcome: CodemodeOutcome = await runner.run(code, { tools, limits, signal: ctx.signal })
      // The program ended while calls ran (they were aborted): say what they did, e.g. which messages went out.
      if (!outcome.ok && running.size) outcome.unfinished = await settleWithin([...running.values()].map(r => r.done), UNFINISHED_GRACE_MS)
      return outcome
    },
    present: presentProgram,
  }
}

async function settleWithin(calls: Promise<UnfinishedCall>[], ms: number): Promise<UnfinishedCall[]> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>(resolve => { timer = setTimeout(() => resolve(undefined), ms) })
  const out = await Promise.all(calls.map(c => Promise.race([c, late])))
  clearTimeout(timer)
  return out.map(c => c ?? { tool: '?', error: `still running ${ms} ms after the program ended` })
}
