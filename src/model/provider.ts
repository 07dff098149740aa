// One AI SDK model per `models` entry (SPEC §1). The handle carries the entry without its apiKey:
// the key lives only inside the provider, so nothing that receives a handle can log or leak it.
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import type { ModelConfig } from '../config/types'
import type { Logger } from '../util/logger'
import { withDialect } from './dialects'
import { imageModels, type ImageModels } from './image-models'
import { chatLunaModel, type ChatLunaModels } from './providers/chatluna'
import { nativeModel } from './providers/native'
import { compatibleModel, compatibleProvider } from './providers/openai-compatible'
import type { ReasoningModes } from './reasoning-mode'

export type PublicModelConfig = Omit<ModelConfig, 'apiKey'>

export interface ModelHandle {
  config: PublicModelConfig
  model: LanguageModel
  /** after a failed request: true when the model now returns its reasoning and the step may be tried again (SPEC §11) */
  learn?(error: unknown): boolean
  /** the entry as an OpenAI-compatible /v1/embeddings model (recall.embeddingModel, SPEC §17); uncounted: called by ModelCalls */
  embedding?(values: string[], signal?: AbortSignal): Promise<{ embeddings: number[][]; tokens?: number }>
  /** the same, counted: only on the handles ModelCalls.handle gives */
  embed?(values: string[], signal?: AbortSignal): Promise<number[][]>
  /** the entry as an OpenAI-compatible speech model (SPEC §20); uncounted: called through ModelCalls */
  speech?: SpeechModels
  /** an image entry's pictures (SPEC §24); uncounted: called through ModelCalls.run({ kind: 'image' }) */
  images?: ImageModels
}

/** /v1/audio/transcriptions and /v1/audio/speech of the entry's server. */
export interface SpeechModels {
  /** the words of `audio` (sent with `mediaType`, which names its file), and its length when the server says */
  transcribe(audio: Uint8Array, mediaType: string, signal?: AbortSignal): Promise<{ text: string; seconds?: number }>
  /** `text` spoken in `voice` (the server's default when empty), asked as `format`; the bytes as the server sent them */
  speak(text: string, o: { voice?: string; format: string; signal?: AbortSignal }): Promise<Uint8Array>
}

/**
 * The entry's model through its provider (SPEC §11.1). `models[].reasoning` and embeddings are the
 * OpenAI-compatible path's; the native providers return reasoning by their own rules.
 */
export function createModel(config: ModelConfig, reasoning?: ReasoningModes, o: { logger?: Logger; chatluna?: ChatLunaModels } = {}): ModelHandle {
  const { apiKey, ...visible } = config
  // a ChatLuna entry's baseURL and model are the Schema's defaults: never used (it would be an Ollama entry)
  if (config.chatluna) return { config: Object.freeze(visible), model: chatLunaModel(config.chatluna, o.chatluna, { reasoning: config.reasoning }) }
  const handle = { config: Object.freeze(visible), speech: speechModels(config), ...config.kind === 'image' ? { images: imageModels(config) } : {} }
  // siliconflow names an image entry's own API; the entry's (unused) chat model is its OpenAI-compatible one
  if (config.provider && config.provider !== 'openai-compatible' && config.provider !== 'siliconflow') {
    return { ...handle, model: withDialect(nativeModel(config, o.logger), config.toolCalls) }
  }
  const provider = compatibleProvider(config, () => reasoning ? reasoning.returns(config) : config.reasoning === 'return')
  return {
    ...handle,
    // text dialects wrap the model in a tool-call parser (SPEC §11, dialects.ts)
    model: withDialect(compatibleModel(provider, config), config.toolCalls),
    ...(reasoning ? { learn: (e: unknown) => reasoning.learn(config, e) } : {}),
    embedding: async (values, signal) => {
      const r = await provider.embeddingModel(config.model).doEmbed({ values, abortSignal: signal })
      return { embeddings: r.embeddings, tokens: r.usage?.tokens }
    },
  }
}

/**
 * The OpenAI provider's speech models pointed at the entry's server: the openai-compatible provider
 * has none. Their `doGenerate` is called, not `experimental_transcribe`, which names every file by
 * a sniff that knows no AMR (it would send an AMR voice as `audio.wav`) and retries on its own.
 */
function speechModels(config: ModelConfig): SpeechModels {
  let provider: ReturnType<typeof createOpenAI> | undefined
  // a local server without a key is sent no Authorization header at all
  const openai = () => provider ??= createOpenAI({
    name: 'kotodama', baseURL: config.baseURL.replace(/\/+$/, ''), apiKey: config.apiKey || '',
    ...(config.apiKey ? {} : { fetch: withoutEmptyBearer }),
  })
  return {
    async transcribe(audio, mediaType, signal) {
      const r = await openai().transcription(config.model).doGenerate({ audio, mediaType, abortSignal: signal })
      return { text: r.text, ...(typeof r.durationInSeconds === 'number' ? { seconds: r.durationInSeconds } : {}) }
    },
    async speak(text, o) {
      const r = await openai().speech(config.model).doGenerate({ text, outputFormat: o.format, ...(o.voice ? { voice: o.voice } : {}), abortSignal: o.signal })
      return typeof r.audio === 'string' ? Buffer.from(r.audio, 'base64') : r.audio
    },
  }
}

const withoutEmptyBearer: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers)
  if (headers.get('authorization')?.trim() === 'Bearer') headers.delete('authorization')
  return fetch(input, { ...init, headers })
}
