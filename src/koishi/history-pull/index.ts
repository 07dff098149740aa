// The history pull wired to Koishi (SPEC §19): its bots, its scope, the runtime registry's starts.
import type { Context } from 'koishi'
import type { Runtime } from '../../runtime/runtime'
import { HistoryPull, type HistoryPullDeps } from './pull'

export { HistoryPull } from './pull'

/** What the inbound side is given for the pull by the service. */
export interface PullHooks {
  /** the running runtime of (profile, bot), if any */
  running: HistoryPullDeps['running']
  /** told when a runtime starts or stops (`key` undefined) or a conversation changes */
  watch(fn: (runtime: Runtime, key?: string) => void): () => void
}

export function historyPull(ctx: Context, d: PullHooks & Omit<HistoryPullDeps, 'bot' | 'active' | 'running'>): HistoryPull {
  const pulls = new HistoryPull({ ...d, bot: sid => ctx.bots[sid], active: () => ctx.scope.isActive })
  const unwatch = d.watch((runtime, key) => { if (key === undefined) pulls.started(runtime) })
  ctx.on('dispose', unwatch)
  return pulls
}
