// read(url?question=...): the image and the question go to attachment.visionModel, through the
// model calls (counted, failed over to its `fallback` like a step: docs/providers.md); only the
// answer returns to the main model. Answers are cached per (model, image bytes, question) in a
// cache the service owns, so one profile never receives another model's answer.
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { ResourceError } from '../resources/errors'
import { isImageType } from '../resources/media-type'
import type { MediaBytes, ReadResult } from '../resources/types'
import { askImage, whyNoAnswer, type ImageAnswer } from './ask-image'
import type { CallPort } from './calls'
import { BudgetExceeded } from '../contract/budget'

export class VisionCache {
  private answers = new LRUCache<string, ImageAnswer>({ max: 500 })

  key(model: string, image: Buffer, question: string): string {
    return `${model}\u0000${createHash('sha256').update(image).digest('hex')}\u0000${question}`
  }

  get(key: string) { return this.answers.get(key) }
  set(key: string, answer: ImageAnswer) { this.answers.set(key, answer) }
  clear() { this.answers.clear() }
}

export interface VisionRequest {
  url: string
  question: string
  /** attachment.visionModel, undefined when none is configured */
  model: string | undefined
  calls: CallPort
  /** the conversation asking, for the log */
  key?: string
  image(url: string, signal?: AbortSignal): Promise<MediaBytes>
  cache: VisionCache
  signal?: AbortSignal
  /** counts the question as a paid request before it is asked (a cached answer costs nothing); throws past the program's limit */
  paid?: () => void
}

export async function askVision(r: VisionRequest): Promise<ReadResult> {
  const { url, question, signal } = r
  if (!question.trim()) throw new ResourceError('empty_question', 'question= is empty; ask something about the image')
  const handle = r.model ? r.calls.handle(r.model) : undefined
  if (!handle) throw new ResourceError('vision_unavailable', 'no vision model is configured (attachment.visionModel)')
  const media = await r.image(url, signal)
  if (!isImageType(media.mediaType)) throw new ResourceError('not_an_image', `${url} is ${media.mediaType}, not an image`)
  const key = r.cache.key(handle.config.id, media.data, question)
  let answer = r.cache.get(key)
  if (answer === undefined) {
    r.paid?.()
    try {
      answer = await askImage({
        calls: r.calls, model: handle, image: media.data, mediaType: media.mediaType, question, key: r.key ?? 'vision', signal,
      })
    } catch (e) {
      if (e instanceof BudgetExceeded) throw new ResourceError('budget_exceeded', `BudgetExceeded: ${e.message}`)
      throw new ResourceError('vision_failed', whyNoAnswer(e))
    }
    r.cache.set(key, answer)
  }
  return { kind: 'answer', url, question, text: answer.text, model: answer.model }
}
