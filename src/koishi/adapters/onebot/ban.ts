// A ban notice as a mute of the mind (SPEC §19). OneBot's `group_ban` (NapCatQQ: OB11GroupBanEvent;
// the OneBot v11 spec's notice.md): `duration` in seconds, `sub_type` ban or lift_ban, `user_id` 0
// for the whole group, which NapCat reports with duration -1 (until an admin lifts it).
import { TIMED_OUT, within } from '../../../util/within'

/** QQ's longest ban of one member: 30 days; a whole-group mute lasts until lifted, kept at most this long. */
export const MAX_BAN_SECONDS = 30 * 24 * 3600

export type BanReading =
  | { kind: 'mute'; seconds: number; clamped?: boolean; whole?: boolean }
  | { kind: 'lift' }
  | { kind: 'other' }
  | { kind: 'invalid'; why: string }

/** What a ban notice means for this bot: muted for `seconds`, lifted, someone else's, or unusable. */
export function readBan(data: Record<string, unknown>, selfId: string): BanReading {
  const user = String(data.user_id ?? '')
  const whole = user === '0'
  if (!whole && user !== selfId) return { kind: 'other' }
  if (data.sub_type === 'lift_ban') return { kind: 'lift' }
  const raw = data.duration
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : NaN
  if (whole && seconds === -1) return { kind: 'mute', seconds: MAX_BAN_SECONDS, whole }
  if (!Number.isFinite(seconds)) return { kind: 'invalid', why: `duration ${JSON.stringify(raw)?.slice(0, 40)} is not a number` }
  if (seconds === 0) return { kind: 'lift' }
  if (seconds < 0) return { kind: 'invalid', why: `duration ${seconds} is negative` }
  if (seconds > MAX_BAN_SECONDS) return { kind: 'mute', seconds: MAX_BAN_SECONDS, clamped: true, ...(whole ? { whole } : {}) }
  return { kind: 'mute', seconds, ...(whole ? { whole } : {}) }
}

/** QQ's whole-group mute does not silence the group's owner or admins. */
export async function exemptFromWholeMute(bot: { getGuildMember?(guild: string, user: string): Promise<{ roles?: { id?: string }[] }> },
  guild: string, selfId: string): Promise<boolean> {
  try {
    const member = await within(Promise.resolve(bot.getGuildMember?.(guild, selfId)), 3000)
    return member !== TIMED_OUT && !!member?.roles?.some(r => r.id === 'admin' || r.id === 'owner')
  } catch {
    return false
  }
}
