// SiliconFlow's own images API (SPEC §24; docs.siliconflow.cn "创建图片生成请求", POST /v1/images/generations):
// `image_size` and `batch_size` where OpenAI has `size` and `n`, an input picture as a data: URL in
// `image` (Kolors image-to-image), an answer `{ images: [{ url }], timings, seed }` whose links expire
// after an hour, errors `{ code, message, data }`. Plain fetch: the AI SDK's image models speak only
// OpenAI's shape. A link's bytes are fetched at once and never shown to the model or the log.
import { APICallError } from 'ai'
import { fetchWithValidatedRedirects } from '@ai-sdk/provider-utils'
import type { ModelConfig } from '../config/types'
import { AnswerTooLarge, boundedFetch, type ImageModels, type Picture } from './image-answers'

/** A picture link that could not be fetched, said without the link. */
export class PictureFetchFailed extends Error {
  override name = 'PictureFetchFailed'
}

const dataURL = (p: Picture) => `data:${p.mediaType};base64,${p.base64 ?? Buffer.from(p.data).toString('base64')}`

export function siliconFlowImages(config: ModelConfig): ImageModels {
  const base = config.baseURL.replace(/\/+$/, '')
  const post = boundedFetch()
  // the owner's baseURL may be a private address (a proxy); a link elsewhere is checked as any download
  const origin = new URL(base).origin
  const download = boundedFetch((input, init) =>
    fetchWithValidatedRedirects({ url: String(input), abortSignal: init?.signal ?? undefined, trustedOrigin: origin }))
  return {
    async generate(prompt, o) {
      const url = `${base}/images/generations`
      const body = { model: config.model, prompt, image_size: o.size, batch_size: o.n ?? 1, ...o.image ? { image: dataURL(o.image) } : {} }
      // what an error keeps of the request: never the picture's bytes
      const shown = { ...body, ...o.image ? { image: `<${o.image.mediaType} picture>` } : {} }
      let res: Response
      try {
        res = await post(url, {
          method: 'POST', body: JSON.stringify(body), signal: o.signal,
          headers: { 'content-type': 'application/json', ...config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {} },
        })
      } catch (e) {
        if (passThrough(e)) throw e
        throw new APICallError({ message: `Cannot connect to API: ${(e as Error)?.message}`, url, requestBodyValues: shown, cause: e, isRetryable: true })
      }
      const text = await res.text()
      const json = parsed(text)
      if (!res.ok) {
        const message = typeof json?.message === 'string' && json.message ? json.message : text.slice(0, 300) || res.statusText
        throw new APICallError({
          message, url, requestBodyValues: shown, statusCode: res.status, responseHeaders: Object.fromEntries(res.headers),
          responseBody: text, isRetryable: res.status === 429 || res.status >= 500, data: json,
        })
      }
      const links = Array.isArray(json?.images) ? json.images.map((i: any) => i?.url) : undefined
      if (!links || links.some((l: unknown) => typeof l !== 'string')) {
        throw new Error(`the picture server answered without images[].url${typeof json?.message === 'string' ? `: ${json.message.slice(0, 300)}` : ''}`)
      }
      const pictures: Picture[] = []
      for (const link of links as string[]) pictures.push(await fetchPicture(download, link, o.signal))
      return pictures
    },
  }
}

async function fetchPicture(download: typeof fetch, link: string, signal?: AbortSignal): Promise<Picture> {
  let res: Response
  try {
    res = await download(link, { signal })
  } catch (e) {
    if (passThrough(e)) throw e
    const name = (e as Error)?.name
    throw new PictureFetchFailed(name === 'AI_DownloadError'
      ? 'the picture\'s link was refused (not http(s), a private address, or too many redirects)'
      : `the picture's link could not be reached (${(e as any)?.cause?.code ?? name ?? 'network error'})`, { cause: e })
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (!res.ok) {
    await res.body?.cancel().catch(() => {})
    throw new PictureFetchFailed(`the picture's link answered HTTP ${res.status} (SiliconFlow's links expire an hour after drawing)`)
  }
  if (!type.startsWith('image/')) {
    await res.body?.cancel().catch(() => {})
    throw new PictureFetchFailed(`the picture's link answered ${type || 'no content type'}, not a picture`)
  }
  return { data: new Uint8Array(await res.arrayBuffer()), mediaType: type }
}

/** Thrown as they are: the bound, and an abort (the turn's, or timeoutMs: "no answer within"). */
const passThrough = (e: unknown) => e instanceof AnswerTooLarge || ['AbortError', 'TimeoutError'].includes((e as Error)?.name)

function parsed(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
