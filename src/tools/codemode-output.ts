// A codemode program's outcome as the model sees it (SPEC §8): media leave only through the
// top-level `attachments` array; everything else is plain JSON; console output follows the result.
import type { ProgramOutcome } from '../sandbox/types'
import { isLifetime, LIFETIMES } from '../exit/attachments'
import { asMediaNode } from '../exit/media-nodes'
import type { ExitKit, ToolResultOutput } from '../contract/tool'

/** A host call the program never saw settle: what it did after the program ended. */
export interface UnfinishedCall {
  tool: string
  result?: unknown
  error?: string
}

export type CodemodeOutcome = ProgramOutcome & { unfinished?: UnfinishedCall[] }

function logsSection(logs: string[]): string {
  return logs.length ? `\n[console]\n${logs.join('\n')}` : ''
}

export function programError(o: { error: { name: string; message: string; line?: number }; logs: string[] }): string {
  const line = o.error.line ? ` (line ${o.error.line})` : ''
  return `${o.error.name}: ${o.error.message}${line}${logsSection(o.logs)}`
}

export async function presentProgram(outcome: CodemodeOutcome, _input: unknown, exit: ExitKit): Promise<ToolResultOutput> {
  if (outcome.ok === false) return { type: 'error-text', value: programError(outcome) + unfinishedSection(outcome) }
  const value = await withAttachments(outcome.value, exit)
  const asText = outcome.logs.length || typeof value === 'string'
  return exit.budgeted(asText ? displayProgram(value, outcome.logs) : undefined, value)
}

/** Replaces the media of a top-level `attachments` array by their attachment lines. */
async function withAttachments(value: unknown, exit: ExitKit): Promise<unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !Array.isArray((value as any).attachments)) return value
  const attachments: unknown[] = []
  for (const [i, item] of ((value as any).attachments as unknown[]).entries()) {
    const node = asMediaNode(item)
    if (!node) {
      attachments.push(item)
      continue
    }
    const lifetime = (item as any).lifetime
    if (lifetime !== undefined && !isLifetime(lifetime)) {
      attachments.push(`[attachment ${i} refused: invalid_attachment_lifetime: ${JSON.stringify(lifetime)} is not one of ${LIFETIMES.join(', ')}]`)
      continue
    }
    attachments.push(await exit.attach(node, lifetime ?? 'once'))
  }
  return { ...(value as object), attachments }
}

/** Calls the program never saw finish, and what they did (a send may have delivered part of its messages). */
function unfinishedSection(o: CodemodeOutcome): string {
  if (!o.unfinished?.length) return ''
  const lines = o.unfinished.map(c => `${c.tool}: ${c.error !== undefined ? `failed: ${c.error}` : JSON.stringify(c.result)}`)
  return `\n[calls still running when the program ended]\n${lines.join('\n')}`
}

function displayProgram(value: unknown, logs: string[]): string {
  const shown = typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2)
  return shown + logsSection(logs)
}
