// A very long message is archived whole and shown as its start plus the read call for the rest,
// so a pasted log cannot flood the context.
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { Fact } from '../history/entries'
import { safeCut } from '../util/surrogate'

export const MAX_FACT_CHARS = 4000

/** A cut at `at` or before it that splits no element tag, entity or surrogate pair (an <img> on the cut stays whole in the rest). */
export function markupCut(content: string, at: number): number {
  let cut = safeCut(content, at)
  const open = content.lastIndexOf('<', cut - 1)
  if (open >= 0 && content.indexOf('>', open) >= cut) cut = open
  const amp = content.lastIndexOf('&', cut - 1)
  if (amp >= 0 && !content.slice(amp, cut).includes(';') && cut - amp <= 10) cut = amp
  return cut
}

/** `owner`: the place that received it, the only one that reads the archive (SPEC §22). */
export async function shortenFact(fact: Fact, artifacts: ArtifactStore, owner?: string): Promise<Fact> {
  if (fact.content.length <= MAX_FACT_CHARS) return fact
  const url = await artifacts.write({ namespace: 'message', data: fact.content, mediaType: 'text/plain', tool: 'message', callId: fact.id, owner })
  const cut = markupCut(fact.content, MAX_FACT_CHARS)
  const more = `[message continues; ${fact.content.length - cut} more characters: read({url: "${url}?offset=${cut}"})]`
  return { ...fact, content: `${fact.content.slice(0, cut)} ${more}` }
}
