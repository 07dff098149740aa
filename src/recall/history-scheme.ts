// The history:// scheme of a runtime (SPEC §17): `read` of a search hit's URL shows that
// conversation around the message. A conversation reads only what its search may find: its own
// history, and in cross mode every conversation of the runtime (a group never reads a private chat).
import { ResourceError } from '../resources/errors'
import { countLines } from '../resources/paging'
import type { ReadResult, SchemeHandler } from '../resources/types'
import { textResult } from '../resources/schemes/text-result'
import { clip } from '../util/clip'
import { historyUrl, parseHistoryUrl, renderPage, SCHEME } from './history-page'
import { RECALLED_TEXT } from '../history/recalled'
import type { RecallParts } from './parts'
import { settled } from './search'
import type { RecallDoc } from './docs'
import { isDirectKey } from '../claims/channel-key'

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
          : `${clip(u.key)} is another conversation; this one reads only its own history (${historyUrl(opts.conversation, 1)})`)
      }
      const idx = await recall.index(u.key)
      await settled(idx)
      const total = idx.count
      if (u.target !== undefined && u.target > total) {
        throw new ResourceError('not_found', `conversation ${clip(u.key)} has ${total} messages; there is no message ${u.target}`)
      }
      const docs = idx.docs(u.first - 1, u.last).map(d => recall.recalled(d) ? { ...d, text: RECALLED_TEXT } : d)
      // cross mode: another private chat's messages are left out (SPEC §22)
      // (no scope: the runtime itself, which reads everything)
      const own = opts.scope?.chat?.direct ? opts.scope.chat.channel : undefined
      const hidden = recall.mode === 'cross' && opts.scope ? (d: RecallDoc) => isDirectKey(d.ch) && d.ch !== own : undefined
      const text = renderPage(u, docs, total, recall.mode === 'cross', hidden)
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
