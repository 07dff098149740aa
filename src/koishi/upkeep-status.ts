// kotodama.status's line for upkeep (SPEC §26): how many changes wait for review, and when it last ran.
import type { Session } from 'koishi'
import type { Runtime } from '../runtime/runtime'
import { upkeepPart } from '../upkeep/part'

export function upkeepStatus(session: Session, r: Runtime, timeOf: (ms: number) => string): string[] {
  const upkeep = r.part(upkeepPart)?.upkeep
  if (!upkeep) return []
  const last = upkeep.runs().at(-1)
  const t = (key: string, args: unknown[] = []) => session.text(`commands.kotodama.status.messages.${key}`, args)
  return [t('upkeep', [upkeep.pending(), last ? t('upkeep-last', [timeOf(last.startedAt)]) : t('upkeep-never')])]
}
