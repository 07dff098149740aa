// The assets a message showed belong to the place that received it (SPEC §22): the edge registered
// them while converting the message, and this claims those registrations for the conversation (a
// private chat inside cross mode for itself). An asset URL a member only typed claims nothing.
import type { Fact } from '../history/entries'
import type { AssetStore } from '../resources/schemes/asset-store'

const ASSET_URL = /asset:\/\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g

/** `place`: the fact's private chat, or its conversation. */
export async function claimAssets(assets: AssetStore, fact: Fact, place: string): Promise<void> {
  for (const text of [fact.content, fact.quote?.content]) {
    // a plain message costs one scan for the scheme's name
    if (!text?.includes('asset://')) continue
    for (const m of text.matchAll(ASSET_URL)) await assets.claimNew(m[1], place)
  }
}
