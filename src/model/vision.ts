// read(url?question=...): the image and the question go to attachment.visionModel; only the
// answer returns to the main model. Answers are cached per (image bytes, question).
import { createHash } from 'node:crypto'
import { generateText } from 'ai'
import { LRUCache } from 'lru-cache'
import { ResourceError } from '../resources/errors'
import { isImageType } from '../resources/media-type'
import type { ReadResult } from '../resources/types'
import type { Runtime } from '../runtime/runtime'

const answers = new LRUCache<string, string>({ max: 500 })

export async function askVision(runtime: Runtime, url: string, question: string, signal?: AbortSignal): Promise<ReadResult> {
  if (!question.trim()) throw new ResourceError('empty_question', 'question= is empty; ask something about the image')
  const id = runtime.profile.attachment.visionModel
  const handle = id ? runtime.options.models.get(id) : undefined
  if (!handle) throw new ResourceError('vision_unavailable', 'no vision model is configured (attachment.visionModel)')
  const media = await runtime.resources.bytes(url, signal)
  if (!isImageType(media.mediaType)) throw new ResourceError('not_an_image', `${url} is ${media.mediaType}, not an image`)
  const key = createHash('sha256').update(media.data).digest('hex') + '\u0000' + question
  let text = answers.get(key)
  if (text === undefined) {
    try {
      const r = await generateText({
        model: handle.model,
        maxRetries: handle.config.maxRetries,
        abortSignal: signal ? AbortSignal.any([signal, AbortSignal.timeout(handle.config.timeoutMs)]) : AbortSignal.timeout(handle.config.timeoutMs),
        messages: [{ role: 'user', content: [
          { type: 'image', image: media.data, mediaType: media.mediaType },
          { type: 'text', text: question },
        ] }],
      })
      text = r.text
    } catch (e: any) {
      throw new ResourceError('vision_failed', e?.message ?? String(e))
    }
    answers.set(key, text)
  }
  return { kind: 'answer', url, question, text, model: handle.config.id }
}
