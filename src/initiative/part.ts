// Initiative as a part (SPEC §21): idle wakes of conversations gone quiet, when `initiative.enabled`.
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { initiativeSection, type InitiativeConfig } from './config'
import { IdleWakes } from './idle-wakes'
import type { IdleNext } from './schedule'

export const initiativePart: PartPlugin<InitiativeConfig, IdleWakes> = {
  name: 'initiative',
  section: initiativeSection,
  create(scope) {
    if (!scope.config.enabled) return undefined
    const { view, platform } = scope
    return new IdleWakes({
      config: scope.config, home: view.home, bot: view.bot, clock: scope.clock, logger: scope.logger, random: Math.random,
      proactive: () => platform.proactive?.(view.bot) !== false,
      muted: channel => scope.muted(channel),
      request: (channel, req) => scope.request(channel, req),
    })
  },
}

/** The idle wakes among a runtime's parts, if on (until the runtime's typed lookup: runtime.part(initiativePart)). */
export function initiativeIn(parts: readonly RuntimePart[]): IdleWakes | undefined {
  return parts.find((p): p is IdleWakes => p.name === initiativePart.name)
}

/** Conversation statuses with their next idle wake, where the part is on. */
export function annotateIdle<S extends { key: string }>(parts: readonly RuntimePart[], statuses: S[]): (S & { idle?: IdleNext })[] {
  const part = initiativeIn(parts)
  return part ? statuses.map(s => ({ ...s, idle: part.next(s.key) })) : statuses
}
