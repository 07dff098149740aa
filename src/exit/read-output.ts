// What the model sees of a read result other than media (SPEC §6): a text page ends with its
// Continue note; errors read `code: message`. File results are media and become attachments.
import type { ReadResult } from '../resources/types'
import type { ToolResultOutput } from '../tools/types'
import { renderTruncatedNote } from '../resources/paging'

export function renderRead(r: Exclude<ReadResult, { kind: 'file' }>): ToolResultOutput {
  switch (r.kind) {
    case 'text': {
      const next = (r as { continueUrl?: string }).continueUrl
      if (!next) return { type: 'text', value: r.text }
      return { type: 'text', value: r.text + (r.text.endsWith('\n') || !r.text ? '' : '\n') + renderTruncatedNote(next) }
    }
    case 'error': return { type: 'error-text', value: `${r.error.code}: ${r.error.message}` }
    case 'answer': return { type: 'text', value: r.text }
    case 'meta': return { type: 'json', value: r as any }
  }
}
