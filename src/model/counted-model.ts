// A language model whose every request is counted in the usage book (issue 26: every call), for
// the handles other plugins' tools and schemes get through the runtime's view: a tool that calls
// `generateText({ model: runtime.model(id).model })` costs what it costs on the owner's figures.
// kotodama's own calls (steps, the judge, vision) are counted by ModelCalls.run and use the raw model.
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Middleware, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import type { Clock } from '../util/clock'

/** `served`: the id of the model that answered when a swap replaced it */
export type CountUsage = (ok: boolean, latencyMs: number, usage?: LanguageModelV3Usage, served?: string) => void

/** Another model to send a request to (a budget's fallback, SPEC §22). */
export interface Swap {
  model: LanguageModel
  id: string
}

/** `before`: asked before each request: another model to use, or undefined; it may throw to hold the request. */
export function countedModel(model: LanguageModel, clock: Clock, count: CountUsage, before?: () => Swap | undefined): LanguageModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return model
  const since = (start: number) => Math.round(clock.monotonic() - start)
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate, params }) => {
      const swap = v3(before?.())
      const start = clock.monotonic()
      try {
        const result = swap ? await swap.model.doGenerate(params) : await doGenerate()
        count(true, since(start), result.usage, swap?.id)
        return result
      } catch (e) {
        count(false, since(start), undefined, swap?.id)
        throw e
      }
    },
    wrapStream: async ({ doStream, params }) => {
      const swap = v3(before?.())
      const start = clock.monotonic()
      let result
      try {
        result = swap ? await swap.model.doStream(params) : await doStream()
      } catch (e) {
        count(false, since(start), undefined, swap?.id)
        throw e
      }
      let counted = false
      const once = (ok: boolean, usage?: LanguageModelV3Usage) => {
        if (!counted) count(ok, since(start), usage, swap?.id)
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

/** A swap whose model can take a v3 request as it is; another kind is not swapped to. */
function v3(swap: Swap | undefined): { model: LanguageModelV3; id: string } | undefined {
  const m = swap?.model
  return m && typeof m !== 'string' && m.specificationVersion === 'v3' ? { model: m as LanguageModelV3, id: swap!.id } : undefined
}
