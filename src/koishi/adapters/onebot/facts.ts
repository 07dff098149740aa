// What OneBot (NapCat, Lagrange) allows the bot (docs/platforms.md).
import type { PlatformFacts } from '../platform-facts'

export const ONEBOT_FACTS: PlatformFacts = {
  label: 'OneBot (NapCat, Lagrange)',
  has: {
    history: true, stickerMark: true, voice: true, poke: true, muteNotices: true, faces: true, proactive: true,
    passiveReplies: 'not needed: every message may be sent',
    // NapCat: set_msg_emoji_like, group_poke / friend_poke, delete_msg (shared/notes/platforms.md "Acts on NapCat")
    react: true, pokeOut: true, unsend: true,
  },
  // QQ lets a member take back a message for 2 minutes
  unsendWindowMs: 120_000,
  // NapCat converts anything but SILK with ffmpeg, the most common voice failure (NapCatQQ #222, #699)
  voiceAs: 'silk-preferred',
}
