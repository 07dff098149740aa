// The next model request of a conversation: the history window (trimmed in blocks, SPEC §16), the
// attachments it shows as images, and the note that says when older history was left out.
import type { ModelMessage } from 'ai'
import { DEFAULT_TRIM_TO } from '../../config/defaults'
import type { ProfileConfig } from '../../config/types'
import type { Entry } from '../../history/entries'
import { toModelMessages } from './build-messages'
import { shortenEntries, type Archive } from './shorten'
import { blockWindow } from './block-window'
import { project, type LoadedImage } from './projection'

export interface ModelRequest {
  messages: ModelMessage[]
  /** characters of the history window (its estimate; images not counted) */
  chars: number
  /** keys of the `once` attachments this request shows */
  shownOnce: string[]
  /** the window's first entry, which the next request starts from while it fits (block-window.ts) */
  anchor?: Entry
}

export interface RequestInput {
  entries: Entry[]
  profile: ProfileConfig
  /** older entries exist on disk but not in memory */
  forgotten: boolean
  /** keys of `once` attachments already shown */
  consumed: Set<string>
  currentTurn: number
  loadImage(url: string): Promise<LoadedImage>
  /** where texts too long for the window are archived */
  archive: Archive
  /** a smaller character budget than context.maxChars (the model's context size) */
  maxChars?: number
  /** the previous request's anchor */
  anchor?: Entry
  /** budgets.timezone: the zone of the lines' times ('' : the host's) */
  zone: string
}

export const TRIMMED_NOTE = '[earlier history is outside your context window]'

export async function buildRequest(o: RequestInput): Promise<ModelRequest> {
  const { maxMessages, trimTo = DEFAULT_TRIM_TO } = o.profile.context
  const maxChars = Math.min(o.profile.context.maxChars, o.maxChars ?? Infinity)
  const picked = blockWindow(o.entries, { maxMessages, maxChars }, trimTo, o.zone, o.anchor)
  const window = picked.over ? await shortenEntries(picked.entries, maxChars, o.archive) : picked.entries
  const projection = await project({
    entries: window, config: o.profile.attachment, consumed: o.consumed, currentTurn: o.currentTurn, load: o.loadImage,
  })
  const messages = toModelMessages(window, o.profile.mode === 'cross', o.zone, projection.byEntry)
  // the same for as long as the window keeps its anchor, so it never breaks the shared prefix
  if (messages.length && (o.forgotten || picked.trimmed || messages[0].role !== 'user')) {
    messages.unshift({ role: 'user', content: TRIMMED_NOTE })
  }
  return { messages, shownOnce: projection.shownOnce, chars: picked.chars, anchor: picked.anchor }
}
