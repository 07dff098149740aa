// The OpenAI images wires for the scripted server. Follows the OpenAI API reference "Images":
// "Create image" (POST /v1/images/generations, JSON: `model`, `prompt` (dall-e-3: at most 4,000
// characters, gpt-image-1: 32,000), `n` 1 to 10, `size` WIDTHxHEIGHT, `response_format` url |
// b64_json), "Create image edit" (POST /v1/images/edits, multipart/form-data: `image` (or
// `image[]`) files, `prompt`, optional `mask`, `model`, `n`, `size`), the image response
// `{ created, data: [{ b64_json } | { url }] }`, and "Error codes" for its error body
// `{ error: { message, type, param, code } }` (a prompt the safety system refuses is HTTP 400 with
// code `content_policy_violation`). `url` answers are served by the same fake, as a CDN would.
import { createHash } from 'node:crypto'
import { tinyPng } from '../../tiny-png'
import type { Delivery, Payload, RecordedRequest, Wire } from '../scripted-server'
import { parseMultipart } from './openai-audio'

export interface ImagesReply extends Delivery {
  /** the picture to answer; default `pictureOf(prompt, input)` */
  picture?: Buffer
  /** answer `data[].url` (a file this fake serves) instead of `b64_json` */
  url?: boolean
  /** a picture of this many bytes (a server that answers 20 MB) */
  hugeBytes?: number
  /** an error (with `status`): its message, type and code */
  error?: string
  errorType?: string
  errorCode?: string
}

/** An edit request's body as this wire parses it. */
export interface EditBody {
  fields: Record<string, string>
  /** the `image` / `image[]` files */
  images: { contentType: string; data: Buffer }[]
}

export const PROMPT_MAX = { 'dall-e-2': 1000, 'dall-e-3': 4000 } as Record<string, number>

/** The fake's default picture for a prompt (and the input of an edit): distinct prompts, distinct bytes. */
export function pictureOf(prompt: string, input?: Buffer): Buffer {
  const h = createHash('sha256').update(prompt).update(input ?? Buffer.alloc(0)).digest()
  return tinyPng(h.readUIntBE(0, 3), 8, 8)
}

export function imagesError(status: number, message: string, type = 'invalid_request_error', code: string | null = null): Payload {
  return { status, json: { error: { message, type, param: null, code } } }
}

/** The files `url` answers point at, by path; served by `FakeOpenAI.images()`'s GET route. */
export type ServedFiles = Map<string, Buffer>

export function openAIImages(files: ServedFiles, edits = false): Wire<ImagesReply> {
  let served = 0
  return {
    error: (status, message, reply) => imagesError(status, message, reply?.errorType, reply?.errorCode ?? null),
    parse: edits ? (raw, headers) => {
      const body: EditBody = { fields: {}, images: [] }
      for (const part of parseMultipart(raw, headers['content-type'])) {
        if (part.name === 'image' || part.name === 'image[]') body.images.push({ contentType: part.contentType, data: Buffer.from(part.data) })
        else body.fields[part.name] = part.data.toString('utf8')
      }
      return body
    } : undefined,
    check(req) {
      const b = fieldsOf(req)
      if (!b.prompt) return 'prompt is a required property'
      const max = PROMPT_MAX[b.model as string] ?? 32000
      if (String(b.prompt).length > max) return `'prompt' is too long: ${String(b.prompt).length} > ${max} characters`
      const n = Number(b.n ?? 1)
      if (!Number.isInteger(n) || n < 1 || n > 10) return `${b.n} is not a valid n: it must be from 1 to 10`
      if (b.size !== undefined && !/^\d+x\d+$/.test(String(b.size))) return `'${b.size}' is not one of the supported sizes`
      if (b.response_format !== undefined && !['url', 'b64_json'].includes(String(b.response_format))) return `'${b.response_format}' is not a valid response_format`
      if (edits && !(req.body as EditBody).images.length) return "image is a required property (a file part named 'image')"
      if (edits && (req.body as EditBody).images.some(i => !/^image\/(png|jpeg|webp)$/.test(i.contentType))) return 'Invalid image file: png, webp or jpg'
      return undefined
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) {
        return imagesError(reply.status, reply.error ?? `scripted status ${reply.status}`, reply.errorType, reply.errorCode ?? null)
      }
      const b = fieldsOf(req)
      const input = edits ? (req.body as EditBody).images[0]?.data : undefined
      const picture = reply.hugeBytes ? Buffer.alloc(reply.hugeBytes, 7) : reply.picture ?? pictureOf(String(b.prompt), input)
      const data = Array.from({ length: Number(b.n ?? 1) }, () => {
        if (!reply.url) return { b64_json: picture.toString('base64') }
        const path = `/v1/images/files/${++served}.png`
        files.set(path, picture)
        return { url: `http://${req.headers.host}${path}` }
      })
      return { status: 200, json: { created: Math.floor(Date.now() / 1000), data } }
    },
    reset: () => { served = 0 },
  }
}

/** The fields of a generation (JSON) or an edit (multipart). */
export function fieldsOf(req: RecordedRequest): Record<string, unknown> {
  return req.body?.fields ?? req.body ?? {}
}
