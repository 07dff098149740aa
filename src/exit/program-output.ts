// A codemode program's outcome through the exit (SPEC §8): media leave only through the top-level
// `attachments` array; everything else is plain JSON; console output follows the result.
import type { ProgramOutcome } from '../sandbox'
import { isLifetime, LIFETIMES } from './attachments'
import { asMediaNode, type MediaNode } from './media-nodes'

export function isProgramOutcome(v: any): v is ProgramOutcome {
  return v && typeof v === 'object' && typeof v.ok === 'boolean' && Array.isArray(v.logs) && ('value' in v || 'error' in v)
}

function logsSection(logs: string[]): string {
  return logs.length ? `\n[console]\n${logs.join('\n')}` : ''
}

export function programError(o: { error: { name: string; message: string; line?: number }; logs: string[] }): string {
  const line = o.error.line ? ` (line ${o.error.line})` : ''
  return `${o.error.name}: ${o.error.message}${line}${logsSection(o.logs)}`
}

/** Replaces the media of a top-level `attachments` array; returns the value to display. */
export async function programValue(value: unknown, store: (node: MediaNode, lifetime: any) => Promise<string>): Promise<unknown> {
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
    attachments.push(await store(node, lifetime ?? 'once'))
  }
  return { ...(value as object), attachments }
}

export function displayProgram(value: unknown, logs: string[]): string {
  const shown = typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2)
  return shown + logsSection(logs)
}
