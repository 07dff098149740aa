// Loops cost nothing (SPEC §22): turns that no person's message woke — a wait window, an idle
// wake, an explicit wake() of the service or the console, a schedule, another bot's message when
// wake.fromBots lets it wake — are counted back from the history's tail to the last fact a person
// wrote. The count lives in the history (turn entries carry their reason, the facts before them
// their author), so a restart neither resets it nor starts a new loop.
import { DEFAULT_TIMING } from '../config/defaults'
import type { ProfileConfig, WakeConfig } from '../config/types'
import type { Entry } from '../history/entries'
import { humanWrote } from './arrival'

/** Whether a turn's reason is one no person's message gave. */
export function selfWoken(reason: string): boolean {
  return reason.startsWith('wait:') || reason === 'idle' || reason.startsWith('wake:') || reason.startsWith('schedule')
}

/**
 * Turns in a row at the end of `entries` (the current turn's own entry included) that no person
 * woke: self-woken ones, and those other bots' messages woke (wake.fromBots); back to the newest
 * fact a person wrote. A tail that holds no such fact counts what it holds.
 */
export function selfWakesInRow(entries: readonly Entry[], wake: WakeConfig): number {
  let n = 0
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'fact' && humanWrote(e.fact, wake)) break
    if (e.type === 'turn' && (selfWoken(e.reason) || !personWoke(entries, i, wake))) n++
  }
  return n
}

/** A turn's `selfWakes()`: the turns in a row no person woke, and the profile's cap (`timing.maxSelfWakes`). */
export function selfWakes(entries: readonly Entry[], profile: Pick<ProfileConfig, 'wake' | 'timing'>): { inRow: number; max: number } {
  return { inRow: selfWakesInRow(entries, profile.wake), max: profile.timing?.maxSelfWakes ?? DEFAULT_TIMING.maxSelfWakes! }
}

/** Whether a person's fact stands among the waking facts before the turn entry at `turn`. */
function personWoke(entries: readonly Entry[], turn: number, wake: WakeConfig): boolean {
  for (let i = turn - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'step' || e.type === 'turn') return false
    if (e.type === 'fact' && e.wake && humanWrote(e.fact, wake)) return true
  }
  return false
}
