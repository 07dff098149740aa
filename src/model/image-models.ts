// An `images` entry's server (SPEC §24): OpenAI-compatible /v1/images/generations, and
// /v1/images/edits (multipart) with an input picture, through the AI SDK's generateImage and
// @ai-sdk/openai-compatible's image model. Every answer is read with a bound: a server that
// answers 20 MB is refused before it fills memory, and a `url` answer's bytes are bounded too.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateImage } from 'ai'
import type { ModelConfig } from '../config/types'
import { COMPATIBLE_NAME } from './providers/openai-compatible'

/** the largest picture kept (the asset store's bound) */
export const PICTURE_MAX_BYTES = 20 * 1024 * 1024
/** a JSON answer holds the picture as base64 (4/3 of it) and a little more */
const JSON_MAX_BYTES = Math.ceil(PICTURE_MAX_BYTES * 4 / 3) + 64 * 1024

export interface Picture {
  readonly data: Uint8Array
  readonly mediaType: string
  /** the bytes as base64, when the server sent them so (no second encoding) */
  readonly base64?: string
}

/** What an image entry's handle offers; uncounted: called through ModelCalls.run({ kind: 'image' }). */
export interface ImageModels {
  /** `n` pictures (default 1) of `prompt` at `size` ('1024x1024'); with `image`, an edit of it */
  generate(prompt: string, o: { size: string; n?: number; image?: Picture; signal?: AbortSignal }): Promise<Picture[]>
}

/** A server's answer past the bound: said in words, never read whole. */
export class AnswerTooLarge extends Error {
  override name = 'AnswerTooLarge'
  constructor() {
    super(`the picture server answered more than ${PICTURE_MAX_BYTES / 1024 / 1024} MB (the bound of a picture); nothing was kept`)
  }
}

/** `fetch` whose answers are read whole up to a bound (JSON: a base64 picture; anything else: the picture). */
export const boundedFetch = (inner: typeof fetch = fetch): typeof fetch => async (input, init) => {
  const res = await inner(input, init)
  const json = (res.headers.get('content-type') ?? '').includes('json')
  const max = json ? JSON_MAX_BYTES : PICTURE_MAX_BYTES
  const length = res.headers.get('content-length')
  if (Number(length ?? 0) > max) {
    await res.body?.cancel().catch(() => {})
    throw new AnswerTooLarge()
  }
  // a declared length within the bound is held to by the HTTP client: read as it is
  if (length !== null) return res
  const chunks: Uint8Array[] = []
  let size = 0
  if (res.body) {
    const reader = res.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > max) {
        await reader.cancel().catch(() => {})
        throw new AnswerTooLarge()
      }
      chunks.push(value)
    }
  }
  const body = [204, 304].includes(res.status) ? null : Buffer.concat(chunks)
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers })
}

export function imageModels(config: ModelConfig): ImageModels {
  let provider: ReturnType<typeof createOpenAICompatible> | undefined
  const model = () => (provider ??= createOpenAICompatible({
    name: COMPATIBLE_NAME, baseURL: config.baseURL.replace(/\/+$/, ''), apiKey: config.apiKey || undefined, fetch: boundedFetch(),
  })).imageModel(config.model)
  return {
    async generate(prompt, o) {
      const r = await generateImage({
        model: model(),
        prompt: o.image ? { images: [o.image.data], text: prompt } : prompt,
        size: o.size as `${number}x${number}`,
        n: o.n ?? 1,
        // one picture is one paid request: a retry is the caller's decision (ModelCalls)
        maxRetries: 0,
        abortSignal: o.signal,
      })
      // the SDK's files decode and encode lazily: a b64_json answer is kept as base64 until bytes are asked
      return r.images.map(f => ({ get data() { return f.uint8Array }, get base64() { return f.base64 }, mediaType: f.mediaType }))
    },
  }
}
