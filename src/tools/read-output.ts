// What the model sees of a read result (SPEC §6, §7): a file is media and becomes an attachment
// with the call's lifetime; a text page keeps its source paging (never archived again) and ends
// with its Continue note; errors read `code: message`.
import { isLifetime } from '../exit/attachments'
import { asMediaNode } from '../exit/media-nodes'
import { renderTruncatedNote } from '../resources/paging'
import type { ReadResult } from '../resources/types'
import type { ExitKit, ToolResultOutput } from '../contract/tool'

/** A direct read's page carries the URL of the next page. */
export type ReadPage = ReadResult & { continueUrl?: string }

export async function presentRead(r: ReadPage, input: { lifetime?: string }, exit: ExitKit): Promise<ToolResultOutput> {
  switch (r.kind) {
    case 'file': return { type: 'text', value: await exit.attach(asMediaNode(r), isLifetime(input?.lifetime) ? input.lifetime : 'once') }
    case 'text': {
      if (!r.continueUrl) return { type: 'text', value: r.text }
      return { type: 'text', value: r.text + (r.text.endsWith('\n') || !r.text ? '' : '\n') + renderTruncatedNote(r.continueUrl) }
    }
    case 'error': return { type: 'error-text', value: `${r.error.code}: ${r.error.message}` }
    case 'answer': return { type: 'text', value: r.text }
    case 'meta': return { type: 'json', value: r as any }
  }
}
