// Where a fact belongs (SPEC §22 "What one chat learns stays in that chat"): its private chat, which
// is a place of its own also inside a cross-mode conversation, else its conversation. What it brings
// (assets) and who wrote it (people's notes) belong there.
import type { Fact } from './entries'

export function placeOfFact(fact: Fact, conversation: string): string {
  return fact.direct ? fact.channel : conversation
}
