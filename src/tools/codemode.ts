// codemode — one model-written program composes tools in a QuickJS sandbox (SPEC §8).
import { z } from 'zod'
import type { CodemodeLimits } from '../config/types'
import type { HostTool, ProgramOutcome, RunOptions } from '../sandbox/types'
import { toolDeclarations } from '../sandbox/declarations'
import { prose } from '../util/prose'
import { presentProgram, type CodemodeOutcome, type UnfinishedCall } from './codemode-output'
import type { Tool, ToolCallContext } from '../contract/tool'
import { paidCounter } from '../contract/paid-calls'
import { DEFAULT_CODEMODE } from '../config/defaults'
import type { TurnModules } from './program-modules'
import DESCRIPTION from './codemode.txt'

/** Runs programs; the service's sandbox (one per plugin instance). */
export interface ProgramRunner {
  run(code: string, opts: RunOptions): Promise<ProgramOutcome>
}

function describe(tools: Map<string, Tool>, limits: CodemodeLimits, hidden?: ReadonlySet<string>): string {
  const declarations = toolDeclarations([...tools].filter(([name]) => !hidden?.has(name)).map(([name, t]) => ({
    name, description: t.description, inputSchema: t.inputSchema, output: t.program?.output, omit: t.program?.omit,
  })))
  return prose(DESCRIPTION, {}, {
    seconds: Math.round(limits.timeoutMs / 1000), mebibytes: Math.round(limits.memoryLimitBytes / 1048576),
    calls: limits.maxToolCalls, paid: paidLimit(limits), declarations,
  })
}

const paidLimit = (limits: CodemodeLimits) => limits.maxPaidCalls ?? DEFAULT_CODEMODE.maxPaidCalls!

const inputSchema = z.object({ code: z.string().min(1).describe('the program: the body of an async function') })

/** How long an ended program's aborted host calls get to report what they did. */
const UNFINISHED_GRACE_MS = 2000

/** `hidden`: callable from programs, declared only by tool_search (SPEC §18); `modules`: what `import()` reads (SPEC §24). */
export function codemodeTool(
  sandboxTools: Map<string, Tool>,
  limits: CodemodeLimits,
  runner: ProgramRunner,
  hidden?: ReadonlySet<string>,
  modules?: TurnModules,
): Tool<{ code: string }, CodemodeOutcome> {
  return {
    description: describe(sandboxTools, limits, hidden),
    inputSchema,
    async execute({ code }, ctx) {
      let n = 0
      const tools: Record<string, HostTool> = {}
      const inflight = new Set<Promise<UnfinishedCall>>()
      const unfinished: UnfinishedCall[] = []
      // one count for the whole program, whichever tools make the paid requests
      const paid = paidCounter(paidLimit(limits))
      for (const [name, tool] of sandboxTools) {
        tools[name] = async (input, { signal }) => {
          const parsed = await tool.inputSchema.safeParseAsync(input ?? {})
          if (!parsed.success) throw new Error(`invalid input: ${parsed.error.issues.map(i => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`)
          const sub: ToolCallContext = { callId: `${ctx.callId}/${++n}`, fromProgram: true, signal, turn: ctx.turn, paid }
          const call = tool.execute(parsed.data, sub)
          const settled = call.then(result => ({ tool: name, result }), e => ({ tool: name, error: e?.message ?? String(e) }))
          inflight.add(settled)
          // The program's end aborts the signal: a call that settles after it was never seen by the program.
          settled.then(u => { inflight.delete(settled); if (signal.aborted) unfinished.push(u) })
          return call
        }
      }
      const imports = modules ? { modules: (url: string, signal: AbortSignal) => modules(url, signal, ctx.turn) } : {}
      const outcome: CodemodeOutcome = await runner.run(code, { tools, limits, signal: ctx.signal, ...imports })
      if (!outcome.ok) {
        await settleWithin([...inflight], UNFINISHED_GRACE_MS, unfinished)
        // say what the calls the program never saw finish did, e.g. which messages went out
        if (unfinished.length) outcome.unfinished = unfinished
      }
      return outcome
    },
    present: presentProgram,
  }
}

/** Waits up to `ms` for the ended program's aborted calls; those still running are named. */
async function settleWithin(calls: Promise<UnfinishedCall>[], ms: number, unfinished: UnfinishedCall[]): Promise<void> {
  if (!calls.length) return
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>(resolve => { timer = setTimeout(() => resolve('late'), ms) })
  const results = await Promise.all(calls.map(c => Promise.race([c, late])))
  clearTimeout(timer)
  // a yield, so the settle callbacks above have recorded what finished
  await Promise.resolve()
  const still = results.filter(r => r === 'late').length
  if (still) unfinished.push({ tool: '(calls)', error: `${still} still running ${ms} ms after the program ended` })
}
