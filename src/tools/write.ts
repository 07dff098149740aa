// write — the mind's notes in local:// (SPEC §13): five forms, one per call, through the resource
// center, so an extension's scheme can offer its own write handler.
import { z } from 'zod'
import type { WriteRequest, WriteResult } from '../resources/types'
import type { RuntimeView } from './types'
import { turnScope } from '../contract/turn-scope'
import type { Tool } from '../contract/tool'
import DESCRIPTION from './write.txt'

const ERROR_CODE = `'forbidden' | 'invalid_url' | 'not_found' | 'no_match' | 'ambiguous_match' | 'too_large' | 'write_failed'`
const RESULT_TYPE = `{ ok: true, url: string, bytes: number, lines: number }`
  + ` | { ok: false, error: { code: ${ERROR_CODE}, message: string, matches?: number } }`

const FORMS = ['content', 'append', 'edit', 'remove', 'moveTo'] as const

// The forms are nullish: models that fill every field they do not use with null (strict
// function-calling setups do) mean "not given", and get the same answer as when they leave it out.
/** write's fields: the URL and its five forms (upkeep's propose takes the same, SPEC §26) */
export const WRITE_FIELDS = {
  url: z.string().describe('e.g. local://memory/games.md'),
  content: z.string().nullish(),
  append: z.string().nullish(),
  edit: z.object({
    find: z.string().min(1),
    replace: z.string(),
  }).nullish(),
  remove: z.boolean().nullish(),
  moveTo: z.string().nullish(),
}

type Forms = { [K in (typeof FORMS)[number]]?: unknown }

/** Exactly one form per call, in words the model can act on. */
export function oneForm(input: Forms, ctx: z.RefinementCtx): void {
  const given = FORMS.filter(f => f === 'remove' ? input.remove === true : input[f] != null)
  if (given.length !== 1) {
    const message = given.length
      ? `give exactly one of ${FORMS.join(', ')}; got ${given.join(' and ')}`
      : `give one of ${FORMS.join(', ')} beside url`
    ctx.addIssue({ code: 'custom', message })
  }
}

const inputSchema = z.object(WRITE_FIELDS).superRefine(oneForm)

export type WriteInput = z.infer<typeof inputSchema>

/** The form given, as the resource center's write takes it. */
export function requestOf(input: Omit<WriteInput, 'url'>): WriteRequest {
  if (input.content != null) return { content: input.content }
  if (input.append != null) return { append: input.append }
  if (input.edit != null) return { edit: { find: input.edit.find, replace: input.edit.replace } }
  if (input.remove) return { remove: true }
  // trimmed as url is: a URL copied with a space around it names the same file
  return { moveTo: input.moveTo!.trim() }
}

/** memory's quotas (SPEC §13) are not described: a write past one is refused with them named */
export function writeTool(runtime: RuntimeView): Tool<WriteInput, WriteResult> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema: inputSchema as unknown as z.ZodType<WriteInput>,
    execute: (input, ctx) => runtime.resources.write(input.url.trim(), requestOf(input), { signal: ctx.signal, scope: turnScope(ctx.turn) }),
    program: { output: RESULT_TYPE },
  }
}
