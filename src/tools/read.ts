// read — one way to look at anything addressed by URL (SPEC §4.2).
import { z } from 'zod'
import type { RuntimeView } from './types'
import type { Tool } from '../contract/tool'
import { PaidCallLimit, paidCallError } from '../contract/paid-calls'
import { turnScope } from '../contract/turn-scope'
import { splitQuestion } from '../resources/file-url'
import { ResourceError } from '../resources/errors'
import { errorResult } from '../resources/center'
import { askVision, type VisionCache } from '../model/vision'
import type { CallPort } from '../model/calls'
import { LIFETIMES } from '../exit/attachments'
import { prose } from '../util/prose'
import { presentRead, type ReadPage } from './read-output'
import DESCRIPTION from './read.txt'
import RESULT_TYPE from './read-result.txt'

type ReadInput = { url: string; lifetime?: string }

export function readTool(runtime: RuntimeView, vision: VisionCache, calls: CallPort): Tool<ReadInput, ReadPage> {
  const p = runtime.profile
  const fields: Record<string, z.ZodType> = { url: z.string() }
  if (p.attachment.imageInput) fields.lifetime = z.string().optional().describe('once | recent | retain')
  return {
    description: prose(DESCRIPTION, { vision: !!p.attachment.visionModel, lifetime: p.attachment.imageInput }),
    inputSchema: z.object(fields) as unknown as z.ZodType<ReadInput>,
    async execute(input, ctx) {
      const { url, question } = splitQuestion(input.url.trim())
      try {
        if (input.lifetime !== undefined && (ctx.fromProgram || !(LIFETIMES as string[]).includes(input.lifetime))) {
          throw new ResourceError('invalid_attachment_lifetime', ctx.fromProgram
            ? 'a program sets lifetimes on its returned attachments, not on read'
            : `lifetime must be once, recent or retain, not ${JSON.stringify(input.lifetime)}`)
        }
        if (question !== undefined) {
          return await askVision({
            url, question, model: p.attachment.visionModel || undefined, calls, cache: vision, signal: ctx.signal, key: ctx.turn.conversation,
            paid: ctx.paid && (() => ctx.paid!('this vision question')),
            image: (u, signal) => runtime.resources.bytes(u, signal, turnScope(ctx.turn)),
          })
        }
        const how = { whole: ctx.fromProgram, maxBytes: runtime.limits.maxToolOutputBytes, signal: ctx.signal, paid: ctx.paid?.bind(ctx) }
        return await runtime.resources.read(url, { ...how, conversation: ctx.turn.conversation, scope: turnScope(ctx.turn) })
      } catch (e) {
        if (e instanceof PaidCallLimit) return { kind: 'error', url, error: { code: 'paid_call_limit', ...paidCallError(e) } }
        return errorResult(url, e)
      }
    },
    present: presentRead,
    // a program sets lifetimes on its returned attachments (SPEC §4.2)
    program: { output: RESULT_TYPE.trim(), omit: ['lifetime'] },
  }
}
