// What a conversation keeps between its requests (SPEC §7, §16): which `once` attachments were
// shown, and the first entry of the last request's window, which the next request extends while
// it fits so a server's prompt cache holds.
import type { ProfileConfig } from '../config/types'
import type { Entry } from '../history/entries'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import { buildRequest, type ModelRequest } from './request/build-request'
import type { LoadedImage } from './request/projection'
import { LRUCache } from 'lru-cache'

const MAX_VIEWS = 32

export interface RequestState {
  entries: Entry[]
  profile: ProfileConfig
  /** older entries were dropped from memory */
  forgotten: boolean
  currentTurn: number
  maxChars?: number
  /** cross mode: the private chat the entries were filtered for (SPEC §22); each view keeps its own anchor */
  view?: string
  /** budgets.timezone: the zone of the lines' times ('' : the host's) */
  zone: string
}

export class RequestBooks {
  /** keys of `once` attachments already shown */
  private consumed = new Set<string>()
  /** per view ('' : the whole conversation) */
  /** a bounded number of views: a hub with many private chats keeps the latest few anchors */
  private anchors = new LRUCache<string, Entry>({ max: MAX_VIEWS })

  /** `owner`: the conversation, the only one that reads its archived context (SPEC §22) */
  constructor(private o: { loadImage(url: string): Promise<LoadedImage>; artifacts(): ArtifactStore; owner?: string }) {}

  /** A loaded history's entry: shown attachments stay shown. */
  loaded(e: Entry): void {
    if (e.type === 'shown') e.ids.forEach(id => this.consumed.add(id))
  }

  async build(input: RequestState): Promise<ModelRequest> {
    const view = input.view ?? ''
    const request = await buildRequest({
      ...input, anchor: this.anchors.get(view), consumed: this.consumed,
      loadImage: url => this.o.loadImage(url),
      archive: text => this.o.artifacts().write({ namespace: 'context', data: text, mediaType: 'text/plain', tool: 'context', owner: this.o.owner }),
    })
    if (request.anchor) this.anchors.set(view, request.anchor)
    else this.anchors.delete(view)
    return request
  }

  /** The `once` attachments of a persisted response were shown: the entry that records it, or none. */
  shown(ids: string[], at: number): Entry | undefined {
    if (!ids.length) return undefined
    ids.forEach(id => this.consumed.add(id))
    return { type: 'shown', at, ids }
  }

  /** The history was reset: the next request starts a new window. */
  reset(): void {
    this.anchors.clear()
  }
}
