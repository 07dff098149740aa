// Voice messages for the console page's players (SPEC §20): an asset:// or artifact:// URL of the
// runtime (its home's, when it is not running) as a data: URL the browser plays. Authority 4, as
// the page's other listeners.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { playableAudio } from '../../console-data/playable-audio'
import { schemeOf } from '../../resources/file-url'
import { mediaOf, placeOf } from './places'

declare module '@koishijs/console' {
  interface Events {
    /** null: not the runtime's, missing, no audio, or not playable in a browser (AMR) */
    'kotodama/audio'(profile: string, bot: string, url: string): Promise<string | null>
  }
}

const AUTHORITY = 4
/** audio larger than this (the WAV, for SILK) is not sent to the page: some six minutes of decoded SILK */
export const MAX_AUDIO_BYTES = 16 * 1024 * 1024

export function registerAudio(ctx: Context) {
  ctx.console.addListener('kotodama/audio', async (profile, bot, url) => {
    if (schemeOf(url) !== 'asset' && schemeOf(url) !== 'artifact') return null
    const media = await mediaOf(await placeOf(ctx, profile, bot), url)
    const audio = media && await playableAudio(media.data, MAX_AUDIO_BYTES)
    return audio ? `data:${audio.mediaType};base64,${audio.data.toString('base64')}` : null
  }, { authority: AUTHORITY })
}
