// The draw tool (SPEC §24): a picture from the image model, kept as an asset:// of this chat that
// the mind sends with <img>. Who asked is the newest person whose message woke the turn, never an
// argument; each may have `perUserDay` pictures a day. An input picture is read through the
// resource center with the turn's scope, so a turn edits only what it may read.
import { z } from 'zod'
import { PaidCallLimit, paidCallError } from '../contract/paid-calls'
import type { Tool, ToolCallContext } from '../contract/tool'
import { turnScope } from '../contract/turn-scope'
import type { CallPort } from '../model/calls'
import type { Picture } from '../model/image-models'
import { schemeOf } from '../resources/file-url'
import { placeOf } from '../resources/scope'
import type { RuntimeView } from '../tools/types'
import type { PicturesConfig } from './config'
import { SIZE } from './config'
import type { DayCounts } from './day-counts'
import DESCRIPTION from './draw.txt'
import { drawPicture, type DrawError } from './drawing'

/** a prompt's bound: image models read a few hundred words (OpenAI's dall-e-3: 4,000 characters) */
export const PROMPT_CHARS = 4000

const inputSchema = z.object({
  prompt: z.string().min(1).max(PROMPT_CHARS),
  size: z.string().regex(SIZE, 'WIDTHxHEIGHT, e.g. 1024x1024').optional(),
  image: z.string().max(2000).optional(),
})

type Input = z.infer<typeof inputSchema>

type ErrorName = DrawError['name'] | 'TooMany' | 'BadImage' | 'PaidCallLimit' | 'NotKept'
export type DrawResult = { ok: true; url: string } | { ok: false; error: { name: ErrorName; message: string } }

const failed = (name: ErrorName, message: string): DrawResult => ({ ok: false, error: { name, message } })

export interface DrawDeps {
  config: PicturesConfig
  view: RuntimeView
  calls: CallPort
  counts: DayCounts
}

export function drawTool(d: DrawDeps): Tool<Input, DrawResult> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema,
    program: { output: '{ ok: boolean, url?: string, error?: { name: string, message: string } }' },
    execute: async (input, ctx) => {
      const given = input.image ? await inputPicture(d, input.image, ctx) : undefined
      if (given && 'name' in given) return failed('BadImage', given.message)
      const image = given as Picture | undefined
      const who = ctx.turn.authors?.find(a => !a.bot)
      // the bot owner's people are never held by perUserDay (as budgets.perUserDay, SPEC §22); their pictures still cost
      const key = who && !ctx.turn.owners?.owners.has(`${who.platform}:${who.id}`) ? `${who.platform}:${who.id}` : undefined
      if (key && !await d.counts.take(key, d.config.perUserDay)) {
        return failed('TooMany', `${who?.name ?? key} has had ${d.config.perUserDay} pictures drawn today (images.perUserDay); ask again tomorrow`)
      }
      try {
        ctx.paid?.('a picture')
      } catch (e) {
        if (key) d.counts.giveBack(key)
        if (e instanceof PaidCallLimit) return { ok: false, error: paidCallError(e) }
        throw e
      }
      const picture = await drawPicture(d.calls, d.config.model, input.prompt, { size: input.size ?? d.config.size, image, signal: ctx.signal })
      if ('name' in picture) {
        if (key) d.counts.giveBack(key)
        return { ok: false, error: picture }
      }
      if (key) void d.counts.write()
      const owner = placeOf(turnScope(ctx.turn))
      try {
        const data = bytesOf(picture)
        const id = await d.view.assets.keep(data, { mediaType: picture.mediaType, filename: 'picture' }, { owner, made: 'picture' })
        return { ok: true, url: `asset://${id}` }
      } catch (e: any) {
        // drawn and paid for, but the bot's media store is full or its disk failed
        return failed('NotKept', `the picture was drawn but could not be kept: ${e?.message ?? e}`)
      }
    },
  }
}

/** The picture to edit: `reference`, or an asset:// or local:// picture this turn may read. */
async function inputPicture(d: DrawDeps, given: string, ctx: ToolCallContext): Promise<Picture | { name: 'BadImage'; message: string }> {
  const url = given === 'reference' ? d.config.reference : given
  if (!url) return { name: 'BadImage', message: 'this persona has no reference picture (images.reference is empty)' }
  const scheme = schemeOf(url)
  if (scheme !== 'asset' && scheme !== 'local') return { name: 'BadImage', message: 'image must be an asset:// or local:// picture, or "reference"' }
  try {
    const m = await d.view.resources.bytes(url, ctx.signal, turnScope(ctx.turn))
    if (!m.mediaType.startsWith('image/')) return { name: 'BadImage', message: `${url} is ${m.mediaType}, not a picture` }
    return { data: m.data, mediaType: m.mediaType }
  } catch (e: any) {
    return { name: 'BadImage', message: String(e?.message ?? e) }
  }
}

/** The picture's bytes; a JSON answer's base64 decoded natively (the SDK's own decoding is a loop over every character). */
function bytesOf(picture: Picture): Buffer {
  if (picture.base64 !== undefined) return Buffer.from(picture.base64, 'base64')
  const bytes = picture.data
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
