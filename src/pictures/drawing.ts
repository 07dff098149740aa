// One picture through the runtime's counted calls (SPEC §24): gated by the budgets, counted in the
// usage book at price.image, never failed over (another model draws another picture), bounded by
// the model's timeoutMs; a failure in the server's words.
import { APICallError } from 'ai'
import { BudgetExceeded } from '../contract/budget'
import type { CallPort } from '../model/calls'
import { FailedStep } from '../model/failover'
import { describeFailure } from '../model/failure'
import { AnswerTooLarge, type Picture } from '../model/image-models'

export type DrawErrorName = 'Refused' | 'Failed' | 'TooLarge' | 'BudgetExceeded' | 'NoPicture'

export interface DrawError {
  name: DrawErrorName
  message: string
}

/** what a failure says, at most */
const WHY = 300
const clipped = (s: string) => s.length > WHY ? `${s.slice(0, WHY)}…` : s

export async function drawPicture(calls: CallPort, model: string, prompt: string,
  o: { size: string; image?: Picture; signal: AbortSignal }): Promise<Picture | DrawError> {
  try {
    const a = await calls.run({
      kind: 'image', model, signal: o.signal, key: 'pictures',
      call: h => {
        if (!h.images) throw new Error(`model "${h.config.id}" is not of kind image`)
        const signal = AbortSignal.any([o.signal, AbortSignal.timeout(h.config.timeoutMs)])
        return h.images.generate(prompt, { size: o.size, image: o.image, signal })
      },
      tokens: pictures => ({ images: pictures.length }),
    })
    const [picture] = a.result!
    return picture ?? { name: 'NoPicture', message: 'the picture server answered no picture' }
  } catch (e) {
    return drawError(e)
  }
}

function drawError(e: unknown): DrawError {
  if (e instanceof BudgetExceeded) return { name: 'BudgetExceeded', message: e.message }
  const inner = e instanceof FailedStep ? e.error : e
  const large = causeOf(inner, c => c instanceof AnswerTooLarge)
  if (large) return { name: 'TooLarge', message: (large as Error).message }
  // a request the server refuses (its safety filter, a prompt it will not draw): its own words
  if (APICallError.isInstance(inner) && (inner.statusCode === 400 || inner.statusCode === 422)) {
    return { name: 'Refused', message: clipped(inner.message) }
  }
  const timeoutMs = e instanceof FailedStep ? e.handle?.config.timeoutMs : undefined
  return { name: 'Failed', message: `the picture server failed: ${clipped(describeFailure(inner, timeoutMs))}` }
}

function causeOf(e: unknown, test: (c: unknown) => boolean): unknown {
  for (let c: any = e, i = 0; c && i < 5; c = c.cause, i++) if (test(c)) return c
  return undefined
}
