// The unified exit (SPEC §7): every direct tool call's result passes here before the model sees
// it. The exit knows no tool by name: a tool may present its own result with the exit's services
// (`present`), convert it AI SDK style (`toModelOutput`), or take the default presentation.
// Explicit media nodes are stored and replaced by attachment lines; display text over the budget
// is archived as one artifact and shown as its first page.
import type { ExitKit, Tool, ToolResultOutput } from '../contract/tool'
import { attachmentLine, type AttachmentItem } from './attachments'
import { asMediaNode, replaceMedia } from './media-nodes'
import { pageString, TEXT_BUDGET } from '../resources/paging'
import { storeMedia, type MediaStores } from './store-media'
import { NotJsonError, toPlainJson } from './plain-json'

export interface ExitContext {
  tool: string
  callId: string
  stores: MediaStores
  /** the place of the turn (resources/scope.ts): what the exit stores is readable only there (SPEC §22) */
  owner?: string
}

export interface ExitResult {
  output: ToolResultOutput
  attachments: AttachmentItem[]
}

export async function exitToolResult(tool: Tool, input: unknown, result: unknown, ctx: ExitContext): Promise<ExitResult> {
  const attachments: AttachmentItem[] = []
  // Whatever the tool returned, only plain JSON goes on (SPEC §10): no value can poison a later request.
  let raw: unknown
  try {
    raw = toPlainJson(result)
  } catch (e) {
    if (!(e instanceof NotJsonError)) throw e
    return { output: { type: 'error-text', value: `the tool's result cannot be shown: ${e.message}` }, attachments }
  }
  const kit: ExitKit = {
    async attach(node, lifetime = 'once') {
      const stored = await storeMedia(node, { namespace: ctx.tool, callId: ctx.callId, stores: ctx.stores, owner: ctx.owner })
      attachments.push({ ...stored, lifetime })
      return attachmentLine(stored)
    },
    budgeted: (text, json) => budgeted(text, json, ctx),
    async plain(value) {
      if (typeof value === 'string') return budgeted(value, undefined, ctx)
      return budgeted(undefined, await replaceMedia(value ?? null, n => kit.attach(n)), ctx)
    },
  }
  let output: ToolResultOutput
  if (tool.present || tool.toModelOutput) {
    output = tool.present ? await tool.present(raw, input, kit) : await fromModelOutput(await tool.toModelOutput(raw, input), kit)
    // a tool's own rendering may build new values; the default one only passes the plain `raw` on
    if (output.type === 'json' || output.type === 'error-json') output = { ...output, value: toPlainJson(output.value) as any }
  } else output = await kit.plain(raw)
  return { output, attachments }
}

/** A toModelOutput result through the budget and the media rule; errors and denials pass as they are. */
async function fromModelOutput(out: ToolResultOutput, kit: ExitKit): Promise<ToolResultOutput> {
  switch (out.type) {
    case 'text': return kit.budgeted(out.value)
    case 'json': return kit.budgeted(undefined, await replaceMedia(out.value, n => kit.attach(n)))
    case 'content': {
      const lines: string[] = []
      for (const part of out.value) {
        if (part.type === 'text') lines.push(part.text)
        else {
          const node = asMediaNode(part)
          lines.push(node ? await kit.attach(node) : JSON.stringify(part))
        }
      }
      return kit.budgeted(lines.join('\n'))
    }
    default: return out
  }
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
  const own = ctx.owner ? { owner: ctx.owner } : {}
  const url = await ctx.stores.artifacts.write(text !== undefined
    ? { namespace: ctx.tool, data: text, mediaType: 'text/plain', tool: ctx.tool, callId: ctx.callId, ...own }
    : { namespace: ctx.tool, data: JSON.stringify(json), mediaType: 'application/json', tool: ctx.tool, callId: ctx.callId, readable: display, ...own })
  const page = pageString(display, 0, next => `${url}?offset=${next}`)
  return { type: 'text', value: page.rendered }
}
