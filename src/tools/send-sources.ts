// Where the media of a send come from (SPEC §4.1 as amended, §22 "What it sends cannot reach the
// host"): every media element leaves with inline data, so no adapter opens a path or a URL on the
// host. asset://, artifact://, local://, workspace:// and http(s):// are read through the runtime
// (the web under `read`'s rules: private addresses only with http.allowPrivate, 20 MiB, a timeout,
// each redirect checked); data: goes as it is, within the same 20 MiB; every other source is dropped.
import h from '@satorijs/element'
import { HTTP_MAX_BYTES } from '../resources/schemes/http'
import { clip } from '../util/clip'
import { MEDIA_ELEMENTS } from '../util/elements'
import type { Dropped } from './send-elements'
import type { ToolHost } from './types'
import type { ReadScope } from '../resources/types'

const READ = new Set(['asset', 'artifact', 'local', 'workspace', 'http', 'https'])
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/
/** the data: URLs adapters decode (OneBot's encoder: `data:<type>;base64,`) */
const INLINE = /^data:[\w.+-]+\/[\w.+-]+;base64,/i
const YOURS = 'a file you have as asset://, artifact://, local:// or workspace://'
const SEND_INSTEAD = `send ${YOURS}, or a web image as https:// when the web is on`

/** The elements with every media source made inline data, or the element left out and reported in `dropped`. */
/** `scope`: who sends (SPEC §22): another chat's asset or artifact is not there. */
export async function resolveSources(elements: h[], host: ToolHost, dropped: Dropped[], signal: AbortSignal, scope?: ReadScope): Promise<h[]> {
  const out: h[] = []
  for (const el of elements) {
    if (!MEDIA_ELEMENTS.has(el.type)) {
      out.push(el.children?.length ? h(el.type, el.attrs, await resolveSources(el.children, host, dropped, signal, scope)) : el)
      continue
    }
    const src = typeof el.attrs.src === 'string' ? el.attrs.src : ''
    const made = await inline(el, src, host, signal, scope)
    if ('code' in made) dropped.push({ src: clip(src || `<${el.type}>`), ...made })
    else out.push(made)
  }
  return out
}

async function inline(el: h, src: string, host: ToolHost, signal: AbortSignal, scope?: ReadScope): Promise<h | { code: string; message: string }> {
  const scheme = SCHEME.exec(src)?.[1].toLowerCase()
  if (scheme === 'data') return inlineData(src) ?? el
  if (!scheme || !READ.has(scheme)) return { code: 'forbidden_source', message: forbidden(el.type, src, scheme) }
  try {
    const media = await host.resolveMedia(src, signal, scope)
    const attrs: Record<string, unknown> = { ...el.attrs, src: `data:${media.mediaType};base64,${media.data.toString('base64')}` }
    if (el.type === 'file' && media.filename && !attrs.title) attrs.title = media.filename
    return h(el.type, attrs, el.children)
  } catch (e: any) {
    // the web scheme is registered only with http.enabled
    if (e?.code === 'unknown_scheme' && scheme.startsWith('http')) {
      return { code: 'forbidden_source', message: `web sources are off here, so ${scheme}:// is not sent; send ${YOURS}` }
    }
    return { code: e?.code ?? 'read_failed', message: e?.message ?? String(e) }
  }
}

/** undefined: the data: URL goes as it is */
function inlineData(src: string): { code: string; message: string } | undefined {
  const head = INLINE.exec(src)
  if (!head) return { code: 'invalid_url', message: 'a data: source is sent only as data:<type>/<subtype>;base64,<data>' }
  const length = src.length - head[0].length
  const bytes = Math.floor(length * 3 / 4) - (src.endsWith('==') ? 2 : src.endsWith('=') ? 1 : 0)
  if (bytes <= HTTP_MAX_BYTES) return undefined
  return { code: 'too_large', message: `the data: source is ${mib(bytes)} MiB; the cap is ${mib(HTTP_MAX_BYTES)} MiB` }
}

function forbidden(type: string, src: string, scheme: string | undefined): string {
  if (!src) return `<${type}> has no src; ${SEND_INSTEAD}`
  const what = scheme ? `${clip(scheme, 20)}: sources` : src.startsWith('//') ? 'sources without a scheme' : 'paths of the host'
  return `${what} are not sent; ${SEND_INSTEAD}`
}

const mib = (n: number) => Math.round(n / 1024 / 1024 * 10) / 10
