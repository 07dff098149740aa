// What an image model answers and how much of it is read (SPEC §24): every answer, JSON or picture
// bytes, is read with a bound, so a server that answers 20 MB is refused before it fills memory.
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
