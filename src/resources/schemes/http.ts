// http:// and https:// — web resources, when the profile enables them (SPEC §5.3). A text longer
// than one page is archived as an artifact first and paged from there.
import { NodeHtmlMarkdown } from 'node-html-markdown'
import { imageDimensions } from '../image-dimensions'
import { isTextualType, sniffMediaType } from '../media-type'
import type { ReadOptions, ReadResult, SchemeHandler } from '../types'
import type { ArtifactStore } from './artifact-store'
import { httpGet } from './http-fetch'
import { textResult } from './text-result'

export const HTTP_TIMEOUT_MS = 30_000
export const HTTP_MAX_BYTES = 20 * 1024 * 1024
const HTML = /^(text\/html|application\/xhtml\+xml)/

/** What the scheme needs of its runtime: the profile's http switches, where to archive, how to read back. */
export interface HttpSchemeDeps {
  enabled: boolean
  allowPrivate: boolean
  artifacts: ArtifactStore
  resources: { read(url: string, opts: ReadOptions): Promise<ReadResult> }
}

export function httpScheme(scheme: 'http' | 'https', o: HttpSchemeDeps): SchemeHandler | undefined {
  if (!o.enabled) return undefined
  const get = (url: string, maxBytes: number, signal?: AbortSignal) =>
    httpGet(url, { allowPrivate: o.allowPrivate, timeoutMs: HTTP_TIMEOUT_MS, maxBytes, signal })
  return {
    scheme,
    async read(url, opts): Promise<ReadResult> {
      const res = await get(url, Math.min(opts.whole ? opts.maxBytes : HTTP_MAX_BYTES, HTTP_MAX_BYTES), opts.signal)
      const sniffed = sniffMediaType(res.data)
      let mediaType = sniffed ?? res.mediaType ?? 'application/octet-stream'
      if (!sniffed && isTextualType(mediaType)) {
        const decoded = new TextDecoder(res.charset || 'utf-8').decode(res.data)
        // Web pages read as Markdown: the text and the links, without markup, styles and scripts.
        const html = HTML.test(mediaType)
        const text = html ? NodeHtmlMarkdown.translate(decoded) : decoded
        if (html) mediaType = 'text/markdown'
        const archiveType = mediaType.startsWith('application/json')
          ? 'application/json'
          : html ? 'text/markdown' : 'text/plain'
        return textResult({ url, text, mediaType, archiveType }, opts, o)
      }
      const filename = decodeURIComponent(new URL(res.url).pathname.split('/').pop() || '') || undefined
      return {
        kind: 'file',
        url,
        mediaType,
        data: res.data.toString('base64'),
        byteLength: res.data.length,
        ...(filename ? { filename } : {}),
        ...imageDimensions(res.data, mediaType),
      }
    },
    async bytes(url, signal) {
      const res = await get(url, HTTP_MAX_BYTES, signal)
      return { data: res.data, mediaType: sniffMediaType(res.data) ?? res.mediaType ?? 'application/octet-stream' }
    },
  }
}
