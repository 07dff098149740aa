// A text made or fetched whole (a web page, an MCP resource, a history:// page) as `read` returns
// it (SPEC §5.3): itself when it fits one page or the caller asked for all of it; longer, archived
// and read again from the artifact, so it pages like any file.
import type { ArtifactStore } from './artifact-store'
import { pageString } from '../paging'
import { placeOf } from '../scope'
import type { ReadOptions, ReadResult } from '../types'
import { wholeRange } from '../whole-range'

export interface TextResult {
  url: string
  text: string
  mediaType: string
  /** the artifact's type when archived (default: the text's own) */
  archiveType?: string
}

/** Where a long text goes: the artifact store, and a reader of what it stored (the resource center). */
export interface TextArchive {
  artifacts: ArtifactStore
  resources: { read(url: string, opts: ReadOptions): Promise<ReadResult> }
}

export async function textResult(t: TextResult, opts: ReadOptions, o: TextArchive): Promise<ReadResult> {
  const { url, text, mediaType } = t
  const whole: ReadResult = {
    kind: 'text', url, text, mediaType,
    source: { url, offset: 0, line: 1, column: 1 },
    range: { ...wholeRange(text, 1), totalChars: text.length },
  }
  if (opts.whole || pageString(text, 0, () => url).nextOffset === undefined) return whole
  // the reader's: another conversation never reads what this one fetched (SPEC §22)
  const owner = opts.scope && placeOf(opts.scope)
  const archived = await o.artifacts.write({ namespace: 'read', data: text, mediaType: t.archiveType ?? mediaType, tool: 'read', ...owner ? { owner } : {} })
  return o.resources.read(archived, opts)
}
