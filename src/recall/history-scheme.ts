// The history:// scheme of a runtime (SPEC §17): `read` of a search hit's URL shows that
// conversation around the message. A conversation reads only what its search may find: its own
// history, and in cross mode every conversation of the runtime (a group never reads a private chat).
import { ResourceError } from '../resources/errors'
import { countLines } from '../resources/paging'
import type { ReadResult, SchemeHandler } from '../resources/types'
import { textResult } from '../resources/schemes/text-result'
import { clip } from '../util/clip'
import { AROUND, nearestId, renderPage, type Page } from './history-page'
import { historyUrl, noSuchMessage, parseHistoryUrl, SCHEME, type HistoryUrl } from './history-url'
import { RECALLED_TEXT } from '../history/recalled'
import type { RecallParts } from './parts'
import { settled } from './search'
import type { RecallDoc } from './docs'
import { isDirectKey } from '../claims/channel-key'
import type { ConvIndex } from './conv-index'

export function historyScheme(recall: RecallParts): SchemeHandler {
  const { view } = recall
  return {
    scheme: SCHEME,
    async read(url, opts): Promise<ReadResult> {
      const u = parseHistoryUrl(url)
      const scope = await recall.scope(opts.conversation)
      if (!scope.includes(u.key)) {
        throw new ResourceError('forbidden', opts.conversation === undefined
          ? 'history:// is read from a conversation'
          : `${clip(u.key)} is another conversation; this one reads only its own history (${historyUrl(opts.conversation)})`)
      }
      const idx = await recall.index(u.key)
      await settled(idx)
      // cross mode: another private chat's messages are left out (SPEC §22)
      // (no scope: the runtime itself, which reads everything)
      const own = opts.scope?.chat?.direct ? opts.scope.chat.channel : undefined
      const hidden = recall.mode === 'cross' && opts.scope ? (d: RecallDoc) => isDirectKey(d.ch) && d.ch !== own : undefined
      const page = pageOf(idx, u, url, d => !hidden?.(d))
      page.docs = page.docs.map(d => recall.recalled(d) ? { ...d, text: RECALLED_TEXT } : d)
      const text = renderPage(page, { cross: recall.mode === 'cross', zone: view.timezone, hidden })
      if (u.view === 'meta') {
        return { kind: 'meta', url, meta: { scheme: SCHEME, mediaType: 'text/plain', byteLength: Buffer.byteLength(text), lines: countLines(text) } }
      }
      if (opts.whole && Buffer.byteLength(text) > opts.maxBytes) {
        throw new ResourceError('too_large', `the page has ${Buffer.byteLength(text)} bytes, more than ${opts.maxBytes}; ask for fewer messages`)
      }
      return textResult({ url, text, mediaType: 'text/plain' }, opts, view)
    },
    async bytes(url) {
      throw new ResourceError('forbidden', `${clip(url)} is a page of text, not media`)
    },
  }
}

/** The messages around the asked one (the latest without one), and the messages that make the pages next to it. */
function pageOf(idx: ConvIndex, u: HistoryUrl, url: string, usable: (d: RecallDoc) => boolean): Page {
  const total = idx.count
  const target = u.id === undefined ? undefined : idx.numberOf(u.id)
  if (u.id !== undefined && target === undefined) throw noSuchMessage(u, url)
  const first = Math.max(0, target === undefined ? total - 2 * AROUND - 1 : target - AROUND)
  const end = Math.min(total, target === undefined ? total : target + AROUND + 1)
  // the pages next to this one are around the messages AROUND + 1 before and after it
  const a = Math.max(0, first - 2 * AROUND - 1)
  const wide = idx.docs(a, Math.min(total, end + 2 * AROUND + 1))
  const page: Page = { key: u.key, first, docs: wide.slice(first - a, end - a), total, ...(target !== undefined ? { target } : {}) }
  if (first > 0) page.earlier = nearestId(wide, Math.max(0, first - 1 - AROUND) - a, 0, first - 1 - a, usable)
  if (end < total) page.later = nearestId(wide, Math.min(total - 1, end + AROUND) - a, end - a, wide.length - 1, usable)
  return page
}
