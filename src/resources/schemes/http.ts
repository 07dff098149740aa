// http:// and https:// — web resources, when the profile enables them (SPEC §5.3). A text longer
// than one page is archived as an artifact first and paged from there.
import { imageSize } from 'image-size'
import { NodeHtmlMarkdown } from 'node-html-markdown'
import { isImageType, sniffMediaType } from '../media-type'
import { pageString } from '../paging'
import type { ReadResult, SchemeHandler } from '../types'
import { httpGet } from './http-fetch'
import type { Runtime } from '../../runtime/runtime'

export const HTTP_TIMEOUT_MS = 30_000
export const HTTP_MAX_BYTES = 20 * 1024 * 1024
const HTML = /^(text\/html|application\/xhtml\+xml)/
const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml))/

export function httpScheme(scheme: 'http' | 'https', runtime: Runtime): SchemeHandler | undefined {
  const cfg = runtime.profile.http
  if (!cfg.enabled) return undefined
  const get = (url: string, maxBytes: number, signal?: AbortSignal) =>
    httpGet(url, { allowPrivate: cfg.allowPrivate, timeoutMs: HTTP_TIMEOUT_MS, maxBytes, signal })
  return {
    scheme,
    async read(url, opts): Promise<ReadResult> {
      const res = await get(url, Math.min(opts.whole ? opts.maxBytes : HTTP_MAX_BYTES, HTTP_MAX_BYTES), opts.signal)
      const sniffed = sniffMediaType(res.data)
      let mediaType = sniffed ?? res.mediaType ?? 'application/octet-stream'
      if (!sniffed && TEXTUAL.test(mediaType)) {
        const decoded = new TextDecoder(res.charset || 'utf-8').decode(res.data)
        // Web pages read as Markdown: the text and the links, without markup, styles and scripts.
        const html = HTML.test(mediaType)
        const text = html ? NodeHtmlMarkdown.translate(decoded) : decoded
        if (html) mediaType = 'text/markdown'
        const whole = { kind: 'text' as const, url, text, mediaType, source: { url, offset: 0, line: 1, column: 1 }, range: { startLine: 1, totalChars: text.length } }
        if (opts.whole || pageString(text, 0, () => url).nextOffset === undefined) return whole
        const archived = await runtime.artifacts.write({ namespace: 'read', data: text, mediaType: mediaType.startsWith('application/json') ? 'application/json' : html ? 'text/markdown' : 'text/plain', tool: 'read' })
        return runtime.resources.read(archived, opts)
      }
      let dims: { width?: number; height?: number } = {}
      if (isImageType(mediaType)) try { const d = imageSize(res.data); dims = { width: d.width, height: d.height } } catch {}
      const filename = decodeURIComponent(new URL(res.url).pathname.split('/').pop() || '') || undefined
      return { kind: 'file', url, mediaType, data: res.data.toString('base64'), byteLength: res.data.length, ...(filename ? { filename } : {}), ...dims }
    },
    async bytes(url, signal) {
      const res = await get(url, HTTP_MAX_BYTES, signal)
      return { data: res.data, mediaType: sniffMediaType(res.data) ?? res.mediaType ?? 'application/octet-stream' }
    },
  }
}
