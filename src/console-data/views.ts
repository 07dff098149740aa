// What the console reads of a running runtime and its conversations: a narrow view the runtime
// satisfies, so the page's data shaping needs neither the concrete runtime nor its stores.
import type { RuntimePart } from '../part/runtime-part'
import type { Entry, LiveStep } from '../history/entries'
import type { PriceOf } from '../usage/cost'
import type { DayUsage } from '../usage/book'

export interface ConversationLook {
  readonly key: string
  readonly busy: boolean
  readonly entries: readonly Entry[]
  /** the step whose calls run now */
  readonly live?: LiveStep
  readonly wait?: { readonly declaration: { seconds?: number; messages?: number }; readonly armedAt: number; readonly factsSeen: number }
  /** the size of its stored history; undefined when it cannot be told */
  storedBytes(): Promise<number | undefined>
}

export interface RuntimeLook {
  readonly profile: { readonly id: string; readonly mode: 'channel' | 'cross' }
  readonly bot: string
  readonly home: string
  readonly usage: { days(): DayUsage[]; readonly priceOf: PriceOf }
  /** its loaded conversations */
  loaded(): Promise<ConversationLook[]>
  /** what it is made of: each part tells what it knows of a conversation (a mute, SPEC §19; the next idle wake, §21) */
  readonly parts?: readonly RuntimePart[]
  /** its inbound media store: bytes kept and the bound (SPEC §22) */
  readonly assets?: { readonly quota?: { used(): Promise<{ bytes: number; limit: number }> } }
}
