// The unified exit (SPEC §7): every direct tool call's result passes here before the model sees
// it. Errors pass through; read text pages keep their source paging; explicit media nodes are
// stored and replaced by attachment lines; display text over the budget is archived as one
// artifact and shown as its first page.
import type { Lifetime } from '../config/types'
import type { ReadResult } from '../resources/types'
import { renderRead } from './read-output'
import type { Tool, ToolResultOutput } from '../tools/types'
import { attachmentLine, type AttachmentItem } from './attachments'
import { asMediaNode, replaceMedia, type MediaNode } from './media-nodes'
import { pageString, TEXT_BUDGET } from '../resources/paging'
import { storeMedia, type MediaStores } from './store-media'
import { displayProgram, isProgramOutcome, programError, programValue } from './program-output'

export interface ExitContext {
  tool: string
  callId: string
  stores: MediaStores
  /** lifetime of media this result carries (read's `lifetime`, else once) */
  lifetime: Lifetime
}

export interface ExitResult {
  output: ToolResultOutput
  attachments: AttachmentItem[]
}

export async function exitToolResult(tool: Tool, input: unknown, raw: unknown, ctx: ExitContext): Promise<ExitResult> {
  const attachments: AttachmentItem[] = []
  const store = async (node: MediaNode, lifetime = ctx.lifetime): Promise<string> => {
    const stored = await storeMedia(node, { namespace: ctx.tool, callId: ctx.callId, stores: ctx.stores })
    attachments.push({ ...stored, lifetime })
    return attachmentLine(stored)
  }
  const done = async (output: ToolResultOutput | Promise<ToolResultOutput>): Promise<ExitResult> => ({ output: await output, attachments })

  if (tool.toModelOutput) {
    const out = await tool.toModelOutput(raw, input)
    switch (out.type) {
      case 'text': return done(budgeted(out.value, undefined, ctx))
      case 'json': return done(budgeted(undefined, await replaceMedia(out.value, n => store(n)), ctx))
      case 'content': {
        const lines: string[] = []
        for (const part of out.value) {
          if (part.type === 'text') lines.push(part.text)
          else {
            const node = asMediaNode(part)
            lines.push(node ? await store(node) : JSON.stringify(part))
          }
        }
        return done(budgeted(lines.join('\n'), undefined, ctx))
      }
      default: return done(out)   // errors and denials pass through
    }
  }
  if (ctx.tool === 'codemode' && isProgramOutcome(raw)) {
    if (raw.ok === false) return done({ type: 'error-text', value: programError(raw as any) })
    const value = await programValue(raw.value, store)
    return done(budgeted(raw.logs.length || typeof value === 'string' ? displayProgram(value, raw.logs) : undefined, value, ctx))
  }
  if (ctx.tool === 'read' && isReadResult(raw)) {
    if (raw.kind === 'file') return done({ type: 'text', value: await store(asMediaNode(raw)) })
    return done(renderRead(raw as Exclude<ReadResult, { kind: 'file' }>))   // a text page keeps its source paging and is never archived again
  }
  if (typeof raw === 'string') return done(budgeted(raw, undefined, ctx))
  return done(budgeted(undefined, await replaceMedia(raw ?? null, n => store(n)), ctx))
}

function isReadResult(v: any): v is ReadResult {
  return v && typeof v === 'object' && ['text', 'file', 'meta', 'answer', 'error'].includes(v.kind) && typeof v.url === 'string'
}

/**
 * Within the budget the model sees the value as it is; past it, the display text (a string as
 * itself, anything else as JSON indented by two spaces) is archived and its first page shown.
 */
async function budgeted(text: string | undefined, json: unknown, ctx: ExitContext): Promise<ToolResultOutput> {
  const display = text ?? JSON.stringify(json, null, 2) ?? 'null'
  // Longer than the budget always pages; only a short text needs the paging engine to decide.
  const whole = display.length <= TEXT_BUDGET.units && pageString(display, 0, () => '').nextOffset === undefined
  if (whole) return text !== undefined ? { type: 'text', value: text } : { type: 'json', value: json as any }
  const url = await ctx.stores.artifacts.write(text !== undefined
    ? { namespace: ctx.tool, data: text, mediaType: 'text/plain', tool: ctx.tool, callId: ctx.callId }
    : { namespace: ctx.tool, data: JSON.stringify(json), mediaType: 'application/json', tool: ctx.tool, callId: ctx.callId, readable: display })
  const page = pageString(display, 0, next => `${url}?offset=${next}`)
  return { type: 'text', value: page.rendered }
}
