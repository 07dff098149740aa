// An `images` entry's server (SPEC §24), by its provider: SiliconFlow's own images API
// (siliconflow-images.ts), else OpenAI-compatible /v1/images/generations, and /v1/images/edits
// (multipart) with an input picture, through the AI SDK's generateImage and
// @ai-sdk/openai-compatible's image model. Every answer is read with a bound (image-answers.ts).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateImage } from 'ai'
import type { ModelConfig } from '../config/types'
import { boundedFetch, type ImageModels } from './image-answers'
import { COMPATIBLE_NAME } from './providers/openai-compatible'
import { siliconFlowImages } from './siliconflow-images'

export { AnswerTooLarge, boundedFetch, PICTURE_MAX_BYTES, type ImageModels, type Picture } from './image-answers'

export function imageModels(config: ModelConfig): ImageModels {
  return config.provider === 'siliconflow' ? siliconFlowImages(config) : compatibleImages(config)
}

function compatibleImages(config: ModelConfig): ImageModels {
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
