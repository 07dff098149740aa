// What OneBot (NapCat, Lagrange) allows the bot (docs/platforms.md).
import type { PlatformFacts } from '../platform-facts'

export const ONEBOT_FACTS: PlatformFacts = {
  label: 'OneBot (NapCat, Lagrange)',
  has: {
    history: true, stickerMark: true, voice: true, poke: true, muteNotices: true, faces: true, proactive: true,
    passiveReplies: 'not needed: every message may be sent',
  },
  // NapCat converts anything but SILK with ffmpeg, the most common voice failure (NapCatQQ #222, #699)
  voiceAs: 'silk-preferred',
}
