// The send_message elements of a runtime's parts: the tags every plugin of the list declares (off or
// on, so an element of a part that is off is reported with its own code) and the servers of the
// parts made.
import { outboundElements, type OutboundElements } from '../tools/outbound'
import type { PartPlugin } from './plugin'
import type { RuntimePart } from './runtime-part'

export function outboundOf(plugins: readonly PartPlugin<any, any>[], parts: readonly RuntimePart[]): OutboundElements {
  return outboundElements(plugins.flatMap(p => p.outbound ?? []), parts.flatMap(p => p.outbound?.() ?? []))
}
