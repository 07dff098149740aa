// The one way kotodama asks the vision model about an image (read's `question=`, sticker labels,
// the check of an image a group keeps sending): the image and the question in one user message,
// through the counted model calls (kind 'vision', failed over like a step), each attempt within
// the model's timeoutMs. The caller decides what the answer means.
import { generateText } from 'ai'
import { describeError } from '../util/describe-error'
import { textTokens, type CallPort } from './calls'
import { FailedStep } from './failover'
import type { ModelHandle } from './provider'

export interface ImageQuestion {
  calls: CallPort
  /** attachment.visionModel: an id of `models`, or its handle */
  model: string | ModelHandle
  image: Buffer
  mediaType: string
  question: string
  /** whose question it is, for the log (a conversation, 'stickers') */
  key: string
  signal?: AbortSignal
}

/** An answer and the model that gave it (a fallback, when the vision model was unavailable). */
export interface ImageAnswer {
  text: string
  model: string
}

/** Asks; a failure throws as the model calls do (FailedStep when every model failed). */
export async function askImage(q: ImageQuestion): Promise<ImageAnswer> {
  const { signal } = q
  const got = await q.calls.run({
    kind: 'vision', model: q.model, signal, key: q.key,
    call: h => {
      const timeout = AbortSignal.timeout(h.config.timeoutMs)
      return generateText({
        model: h.model,
        maxRetries: h.config.maxRetries,
        abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        messages: [{ role: 'user', content: [
          { type: 'image', image: q.image, mediaType: q.mediaType },
          { type: 'text', text: q.question },
        ] }],
      })
    },
    tokens: a => textTokens(a.usage),
  })
  return { text: got.result!.text, model: got.handle.config.id }
}

/** Why an ask got no answer, in words: the last model's own error when every model failed. */
export function whyNoAnswer(e: unknown): string {
  return describeError(e instanceof FailedStep ? e.error : e)
}
