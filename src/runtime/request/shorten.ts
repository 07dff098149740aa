// When the entries a request must hold are alone over `context.maxChars` (SPEC §10), the longest
// tool results and facts are shown shortened, each with the read call to its whole text, archived
// as an artifact. Entries are never changed: a shortened copy is made per request window.
import type { ToolResultPart } from 'ai'
import { safeCut } from '../../util/surrogate'
import type { Entry } from '../../history/entries'

/** Stores a text and returns its artifact:// URL (content-addressed, so the same text is one artifact). */
export type Archive = (text: string) => Promise<string>

/** The smallest part of a result or fact that stays visible. */
const MIN_SHOWN = 1000

type Output = ToolResultPart['output']

function outputText(o: Output): string | undefined {
  if (o.type === 'text' || o.type === 'error-text') return o.value
  if (o.type === 'json' || o.type === 'error-json') return JSON.stringify(o.value, null, 2)
  return undefined
}

const note = (url: string) => `\n[shortened to fit your context window; the whole text: read({url: "${url}"})]`

async function cut(text: string, keep: number, archive: Archive): Promise<string> {
  const url = await archive(text)
  return text.slice(0, safeCut(text, keep)) + note(url)
}

/** Shortened copies of `entries` whose long parts share `maxChars` between them. */
export async function shortenEntries(entries: Entry[], maxChars: number, archive: Archive): Promise<Entry[]> {
  let parts = 0
  for (const e of entries) {
    if (e.type === 'fact') parts++
    else if (e.type === 'step') for (const m of e.messages) if (m.role === 'tool') parts += m.content.length
  }
  const keep = Math.max(MIN_SHOWN, Math.floor(maxChars * 0.8 / Math.max(parts, 1)))
  const out: Entry[] = []
  for (const e of entries) {
    if (e.type === 'fact' && e.fact.content.length > keep) {
      out.push({ ...e, fact: { ...e.fact, content: await cut(e.fact.content, keep, archive) } })
    } else if (e.type === 'step') {
      const messages = []
      for (const m of e.messages) {
        if (m.role !== 'tool') {
          messages.push(m)
          continue
        }
        const content = []
        for (const part of m.content) {
          const text = part.type === 'tool-result' ? outputText(part.output) : undefined
          if (part.type !== 'tool-result' || text === undefined || text.length <= keep) {
            content.push(part)
            continue
          }
          const type = part.output.type.startsWith('error') ? 'error-text' : 'text'
          content.push({ ...part, output: { type, value: await cut(text, keep, archive) } as Output })
        }
        messages.push({ ...m, content })
      }
      out.push({ ...e, messages })
    } else out.push(e)
  }
  return out
}
