// read(url?question=...): the image and the question go to attachment.visionModel; only the
// answer returns to the main model. Answers are cached per (model, image bytes, question) in a
// cache the service owns, so one profile never receives another model's answer.
import { createHash } from 'node:crypto'
import { generateText } from 'ai'
import { LRUCache } from 'lru-cache'
import { ResourceError } from '../resources/errors'
import { isImageType } from '../resources/media-type'
import type { MediaBytes, ReadResult } from '../resources/types'
import type { ModelHandle } from './provider'

export class VisionCache {
  private answers = new LRUCache<string, string>({ max: 500 })

  key(model: string, image: Buffer, question: string): string {
    return `${model}\u0000${createHash('sha256').update(image).digest('hex')}\u0000${question}`
  }

  get(key: string) { return this.answers.get(key) }
  set(key: string, text: string) { this.answers.set(key, text) }
  clear() { this.answers.clear() }
}

export interface VisionRequest {
  url: string
  question: string
  /** the configured vision model, undefined when none is */
  handle: ModelHandle | undefined
  image(url: string, signal?: AbortSignal): Promise<MediaBytes>
  cache: VisionCache
  signal?: AbortSignal
}

export async function askVision(r: VisionRequest): Promise<ReadResult> {
  const { url, question, handle, signal } = r
  if (!question.trim()) throw new ResourceError('empty_question', 'question= is empty; ask something about the image')
  if (!handle) throw new ResourceError('vision_unavailable', 'no vision model is configured (attachment.visionModel)')
  const media = await r.image(url, signal)
  if (!isImageType(media.mediaType)) throw new ResourceError('not_an_image', `${url} is ${media.mediaType}, not an image`)
  const key = r.cache.key(handle.config.id, media.data, question)
  let text = r.cache.get(key)
  if (text === undefined) {
    const timeout = AbortSignal.timeout(handle.config.timeoutMs)
    try {
      const answer = await generateText({
        model: handle.model,
        maxRetries: handle.config.maxRetries,
        abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        messages: [{ role: 'user', content: [
          { type: 'image', image: media.data, mediaType: media.mediaType },
          { type: 'text', text: question },
        ] }],
      })
      text = answer.text
    } catch (e: any) {
      throw new ResourceError('vision_failed', e?.message ?? String(e))
    }
    r.cache.set(key, text)
  }
  return { kind: 'answer', url, question, text, model: handle.config.id }
}
