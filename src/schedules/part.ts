// Schedules as a part (SPEC §25): the schedule tool and the tasks it keeps, in the runtime home's
// schedules.json or, under `storage: database`, in Koishi's database shared by instances.
import type { PartPlugin } from '../part/plugin'
import { schedulesSection, type SchedulesConfig } from './config'
import { FileTaskStore } from './file-store'
import { tasksAhead } from './pending'
import { RecordsTaskStore } from './records-store'
import { Schedules } from './schedules'
import type { TaskStore } from './store'
import { scheduleTool } from './tool'

/** The tasks with their tool: what `runtime.part(schedulesPart)` gives the console and the command. */
export class SchedulesPart extends Schedules {
  tools() {
    return [['schedule', scheduleTool(this)]] as [string, ReturnType<typeof scheduleTool>][]
  }
}

export const schedulesPart: PartPlugin<SchedulesConfig, SchedulesPart> = {
  name: 'schedules',
  section: schedulesSection,
  create(scope) {
    if (!scope.config.enabled) return undefined
    const { view, platform } = scope
    const store: TaskStore = scope.records ? new RecordsTaskStore(scope.records) : new FileTaskStore(view.home, scope.logger)
    return new SchedulesPart({
      config: scope.config, zone: view.timezone, store, clock: scope.clock, logger: scope.logger, random: Math.random,
      shared: !!store.shared,
      proactive: () => platform.proactive?.(view.bot) !== false,
      muted: channel => scope.muted(channel),
      request: (channel, req) => scope.request(channel, req),
    })
  },
  pending: (home, config, records) => config.enabled ? tasksAhead(home, records) : Promise.resolve(false),
}
