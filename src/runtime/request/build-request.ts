// The next model request of a conversation: the history window, the attachments it shows as
// images, and the note that says when older history was left out.
import type { ModelMessage } from 'ai'
import type { ProfileConfig } from '../../config/types'
import type { Entry } from '../types'
import { toModelMessages } from './build-messages'
import { shortenEntries, type Archive } from './shorten'
import { windowEntries } from './window'
import { project, type LoadedImage } from './projection'

export interface ModelRequest {
  messages: ModelMessage[]
  /** characters of the history window (its estimate; images not counted) */
  chars: number
  /** keys of the `once` attachments this request shows */
  shownOnce: string[]
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
}

export const TRIMMED_NOTE = '[earlier history is outside your context window]'

export async function buildRequest(o: RequestInput): Promise<ModelRequest> {
  const { maxMessages } = o.profile.context
  const maxChars = Math.min(o.profile.context.maxChars, o.maxChars ?? Infinity)
  const picked = windowEntries(o.entries, { maxMessages, maxChars })
  const window = picked.over ? await shortenEntries(picked.entries, maxChars, o.archive) : picked.entries
  const projection = await project({
    entries: window, config: o.profile.attachment, consumed: o.consumed, currentTurn: o.currentTurn, load: o.loadImage,
  })
  const messages = toModelMessages(window, o.profile.mode === 'cross', projection.byEntry)
  if (messages.length && (o.forgotten || picked.trimmed || messages[0].role !== 'user')) {
    messages.unshift({ role: 'user', content: TRIMMED_NOTE })
  }
  return { messages, shownOnce: projection.shownOnce, chars: picked.chars }
}
