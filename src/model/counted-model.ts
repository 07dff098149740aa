// A language model whose every request is counted in the usage book (issue 26: every call), for
// the handles other plugins' tools and schemes get through the runtime's view: a tool that calls
// `generateText({ model: runtime.model(id).model })` costs what it costs on the owner's figures.
// kotodama's own calls (steps, the judge, vision) are counted by ModelCalls.run and use the raw model.
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Middleware, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import type { Clock } from '../util/clock'

export type CountUsage = (ok: boolean, latencyMs: number, usage?: LanguageModelV3Usage) => void

export function countedModel(model: LanguageModel, clock: Clock, count: CountUsage): LanguageModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return model
  const since = (start: number) => Math.round(clock.monotonic() - start)
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate }) => {
      const start = clock.monotonic()
      try {
        const result = await doGenerate()
        count(true, since(start), result.usage)
        return result
      } catch (e) {
        count(false, since(start))
        throw e
      }
    },
    wrapStream: async ({ doStream }) => {
      const start = clock.monotonic()
      let result
      try {
        result = await doStream()
      } catch (e) {
        count(false, since(start))
        throw e
      }
      let counted = false
      const once = (ok: boolean, usage?: LanguageModelV3Usage) => {
        if (!counted) count(ok, since(start), usage)
        counted = true
      }
      const watch = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(part, out) {
          if (part.type === 'finish') once(true, part.usage)
          else if (part.type === 'error') once(false)
          out.enqueue(part)
        },
        flush: () => once(false),
      })
      return { ...result, stream: result.stream.pipeThrough(watch) }
    },
  }
  return wrapLanguageModel({ model: model as LanguageModelV3, middleware })
}
