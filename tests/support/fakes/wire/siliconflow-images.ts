// SiliconFlow's images API for the scripted server. Follows what was found of it (docs and code corpora):
// - docs.siliconflow.cn "创建图片生成请求" (api-reference/images/images-generations, and its OpenAPI at
//   api-docs.siliconflow.cn): POST /v1/images/generations, JSON `model`, `prompt` (required),
//   `negative_prompt`, `image_size` "WxH" (required; recommended per model: Kolors 1024x1024, 960x1280,
//   768x1024, 720x1440, 720x1280; Qwen-Image 1328x1328, 1664x928, 928x1664, 1472x1140, 1140x1472,
//   1584x1056, 1056x1584; the Qwen-Image-Edit models take none), `batch_size` 1–4 (default 1),
//   `seed` ≤ 9999999999, `num_inference_steps` 1–100, `guidance_scale`, `image` ("data:image/png;base64,
//   XXX" or an http URL); the answer `{ images: [{ url }], timings: { inference }, seed }`, the URL
//   "valid for one hour".
// - docs.siliconflow.com "Error Handling" (faqs/error-code): 400 wrong parameters, 401 API key,
//   403 permissions (real-name authentication), 429 rate limits, 500, 503/504 load; the body
//   `{"code":20012,"message":"Model does not exist. Please check it carefully.","data":null}`.
// - public callers: a SKILL.md (skills.sh gen-image) posting `image_size` and `num_inference_steps`;
//   Python clients reading `response['images'][0]['url']` and `['timings']['inference']`; a proxy
//   mapping OpenAI's `size`/`n` to `image_size`/`batch_size` clamped to 1–4. `shared_id` is in the
//   brief's description of the answer. Codes other than 20012 are this fake's own.
// The links point at this fake (a path under /files/, a signed-URL query like OSS's), counted when fetched.
import { tinyPng } from '../../tiny-png'
import { pictureOf } from './openai-images'
import type { Delivery, Payload, RecordedRequest, Wire } from '../scripted-server'

export interface SiliconFlowReply extends Delivery {
  /** the picture behind each link; default `pictureOf(prompt, input)` */
  picture?: Buffer
  /** a picture of this many bytes */
  hugeBytes?: number
  /** the links answer 404, as an hour after drawing */
  expired?: boolean
  /** the links point at this origin instead of the fake's (a CDN elsewhere) */
  linkOrigin?: string
  /** an error (with `status`): its message and code */
  error?: string
  code?: number
}

export const SIZES: Record<string, string[]> = {
  'Kwai-Kolors/Kolors': ['1024x1024', '960x1280', '768x1024', '720x1440', '720x1280'],
  'black-forest-labs/FLUX.1-schnell': ['1024x1024', '960x1280', '768x1024', '720x1440', '720x1280'],
  'Qwen/Qwen-Image': ['1328x1328', '1664x928', '928x1664', '1472x1140', '1140x1472', '1584x1056', '1056x1584'],
}

const NO_MODEL = 'Model does not exist. Please check it carefully.'
const CODES: Record<string, number> = { [NO_MODEL]: 20012 }

export function siliconFlowError(status: number, message: string, code?: number): Payload {
  return { status, json: { code: code ?? CODES[message] ?? 20000 + status, message, data: null } }
}

/** A link's picture, and whether it has expired. */
export type LinkedFiles = Map<string, { bytes: Buffer; expired: boolean }>

/** The bytes of a data: URL `image`, if it is one. */
export function inputOf(image: unknown): Buffer | undefined {
  const m = typeof image === 'string' ? /^data:image\/[\w+.-]+;base64,(.*)$/s.exec(image) : null
  return m ? Buffer.from(m[1], 'base64') : undefined
}

export function siliconFlowImages(files: LinkedFiles): Wire<SiliconFlowReply> {
  let served = 0
  return {
    error: (status, message, reply) => siliconFlowError(status, message, reply?.code),
    check(req) {
      if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) return { status: 401, message: 'Invalid token' }
      const b = req.body ?? {}
      const sizes = SIZES[b.model]
      if (!sizes) return NO_MODEL
      if (typeof b.prompt !== 'string' || !b.prompt) return 'prompt is required'
      if (b.image_size === undefined) return 'image_size is required'
      if (!sizes.includes(b.image_size)) return `image_size ${JSON.stringify(b.image_size)} is not supported by ${b.model} (${sizes.join(', ')})`
      const n = b.batch_size ?? 1
      if (!Number.isInteger(n) || n < 1 || n > 4) return `batch_size must be an integer from 1 to 4, got ${JSON.stringify(b.batch_size)}`
      if (b.image !== undefined && !inputOf(b.image) && !/^https?:\/\//.test(String(b.image))) return 'image must be a base64 data URL or an http(s) URL'
      return undefined
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return siliconFlowError(reply.status, reply.error ?? `scripted status ${reply.status}`, reply.code)
      const b = req.body
      const picture = reply.hugeBytes ? Buffer.concat([tinyPng(0, 1, 1), Buffer.alloc(reply.hugeBytes)]) : reply.picture ?? pictureOf(b.prompt, inputOf(b.image))
      const images = Array.from({ length: b.batch_size ?? 1 }, () => {
        const path = `/files/${++served}.png`
        files.set(path, { bytes: picture, expired: !!reply.expired })
        return { url: `${reply.linkOrigin ?? `http://${req.headers.host}`}${path}?Expires=${3600 + served}&Signature=fake` }
      })
      return { status: 200, json: { images, timings: { inference: 1.25 }, seed: 4999999999, shared_id: '0' } }
    },
    reset: () => { served = 0 },
  }
}

/** The request a generation sent, as JSON. */
export const requestOf = (req: RecordedRequest): Record<string, unknown> => req.body ?? {}
