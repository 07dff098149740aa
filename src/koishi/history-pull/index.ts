// The history pull (src/history-pull/) wired to Koishi (SPEC §19): its bots and their history
// sources, its scope, the runtime registry's starts, the render kit of a runtime.
import type { Context } from 'koishi'
import { HistoryPull, type HistoryPullDeps } from '../../history-pull/pull'
import type { PulledFactKit } from '../../history-pull/pulled-fact'
import type { VoiceOrigin } from '../../inbound/kit'
import type { RenderKit } from '../../inbound/render'
import type { Runtime } from '../../runtime/runtime'
import { historySource } from './sources'

export type { HistoryPull } from '../../history-pull/pull'

/** What the inbound side gives the pull. */
export interface PullHooks extends Omit<HistoryPullDeps<Runtime>, 'source' | 'kit' | 'active'> {
  /** told when a runtime starts or stops (`key` undefined) or a conversation changes */
  watch(fn: (runtime: Runtime, key?: string) => void): () => void
  botName(sid: string): string | undefined
  /** how the runtime hears the voices of one message (SPEC §20), when voice.stt is set */
  hearing(runtime: Runtime, m: VoiceOrigin): RenderKit['voice']
}

export function historyPull(ctx: Context, d: PullHooks): HistoryPull<Runtime> {
  const kit = (runtime: Runtime): PulledFactKit | undefined => {
    const bot = ctx.bots[runtime.bot]
    if (!bot) return undefined
    const hear = (m: VoiceOrigin) => d.hearing(runtime, m)
    return { assets: runtime.assets, bot: runtime.bot, selfId: String(bot.selfId), botName: d.botName(runtime.bot), hear }
  }
  const source = (sid: string) => {
    const bot = ctx.bots[sid]
    return bot ? historySource(bot) : undefined
  }
  const pulls = new HistoryPull<Runtime>({ ...d, source, kit, active: () => ctx.scope.isActive })
  const unwatch = d.watch((runtime, key) => { if (key === undefined) pulls.started(runtime) })
  ctx.on('dispose', unwatch)
  return pulls
}
