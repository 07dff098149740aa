// read — one way to look at anything addressed by URL (SPEC §4.2).
import { z } from 'zod'
import type { Tool } from './types'
import { splitQuestion } from '../resources/file-url'
import { ResourceError } from '../resources/errors'
import { errorResult } from '../resources/center'
import type { ReadResult } from '../resources/types'
import type { Runtime } from '../runtime/runtime'
import { askVision } from '../model/vision'

const LIFETIMES = ['once', 'recent', 'retain']

const DESCRIPTION = `Read anything addressed by URL: asset:// (media people sent), artifact:// (archived results), local:// (your folder), plus the other registered schemes.
- Lines: url:N (from line N), url:A-B, url:A+C (C lines from A), before any query. A literal ':' in a name is %3A.
- ?view=meta: metadata only. Folders list their entries.
- A long text comes one page at a time; the page ends with a [truncated ...] note holding the exact read call for the next page.`
const VISION = `\n- Images: url?question=... asks a vision model and returns its answer as text.`
const LIFETIME = `\n- lifetime (images): once (default, shown in your next request), recent (for the last few turns) or retain (while in context).`

type ReadInput = { url: string; lifetime?: string }

export function readTool(runtime: Runtime): Tool<ReadInput, ReadResult> {
  const p = runtime.profile
  const fields: Record<string, z.ZodType> = { url: z.string().describe('the resource URL') }
  if (p.attachment.imageInput) fields.lifetime = z.string().optional().describe('once | recent | retain')
  return {
    description: DESCRIPTION + (p.attachment.visionModel ? VISION : '') + (p.attachment.imageInput ? LIFETIME : ''),
    inputSchema: z.object(fields) as unknown as z.ZodType<ReadInput>,
    async execute(input, ctx) {
      const { url, question } = splitQuestion(input.url.trim())
      try {
        if (input.lifetime !== undefined && (ctx.fromProgram || !LIFETIMES.includes(input.lifetime))) {
          throw new ResourceError('invalid_attachment_lifetime', ctx.fromProgram
            ? 'a program sets lifetimes on its returned attachments, not on read'
            : `lifetime must be once, recent or retain, not ${JSON.stringify(input.lifetime)}`)
        }
        if (question !== undefined) return await askVision(runtime, url, question, ctx.signal)
        return await runtime.resources.read(url, { whole: ctx.fromProgram, maxBytes: runtime.options.limits.maxToolOutputBytes, signal: ctx.signal })
      } catch (e) {
        return errorResult(url, e)
      }
    },
  }
}
