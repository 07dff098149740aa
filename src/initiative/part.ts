// Initiative as a part (SPEC §21): idle wakes of conversations gone quiet, when `initiative.enabled`.
import type { PartPlugin } from '../part/plugin'
import { initiativeSection, type InitiativeConfig } from './config'
import { IdleWakes } from './idle-wakes'
import { idleWakeAhead } from './pending'

export const initiativePart: PartPlugin<InitiativeConfig, IdleWakes> = {
  name: 'initiative',
  section: initiativeSection,
  create(scope) {
    if (!scope.config.enabled) return undefined
    const { view, platform } = scope
    return new IdleWakes({
      config: scope.config, dayZone: view.timezone, home: view.home, bot: view.bot, clock: scope.clock, logger: scope.logger, random: Math.random,
      proactive: () => platform.proactive?.(view.bot) !== false,
      muted: channel => scope.muted(channel),
      request: (channel, req) => scope.request(channel, req),
    })
  },
  pending: (home, config) => config.enabled ? idleWakeAhead(home) : Promise.resolve(false),
}
