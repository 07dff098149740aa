// Whether a runtime has work due without a message — a pending wait (SPEC §15) or a part's (an idle
// wake, a reminder) — read from its home without making it: the edge starts such runtimes once
// their bot is online.
import type { ProfileConfig } from '../config/types'
import type { PartPlugin } from '../part/plugin'
import type { PartRecords } from '../part/records'
import { sectionOf } from '../part/section-config'
import { mayHavePendingWaits } from './durable-waits'
import { PARTS } from './part-list'

/** `records`: the runtime's tables under `storage: database` */
export async function hasWorkWithoutMessage(home: string, profile: ProfileConfig, records?: PartRecords): Promise<boolean> {
  if (await mayHavePendingWaits(home)) return true
  const plugins: readonly PartPlugin<unknown, unknown>[] = PARTS
  for (const plugin of plugins) {
    if (await plugin.pending?.(home, sectionOf(plugin.section, profile), records).catch(() => false)) return true
  }
  return false
}
