// The console's upkeep view (SPEC §26): a runtime's proposals with their diffs and the messages they
// rest on, its last runs; accept or reject one; run now. Authority 4, as the page's other listeners.
// A running runtime is read through its upkeep part and its recall index; one that is not running
// from its home (upkeep/proposals.json, state.json) and its stored histories, without starting it.
// A decision or a run starts it: applying a change needs memory's writer; with its bot gone it cannot
// start, and only a reject is recorded (in its home's book).
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { platformOf } from '../../claims/bot-id'
import { sectionOf } from '../../part/section-config'
import { recallPart } from '../../recall/part'
import type { Runtime } from '../../runtime/runtime'
import { presentText, proposalsAtHome, runsAtHome } from '../../upkeep/at-home'
import { upkeepPart } from '../../upkeep/part'
import { rejectAtHome } from '../../upkeep/reject-at-home'
import type { Decision } from '../../upkeep/upkeep'
import { storedMessages } from '../../console-data/upkeep-sources'
import { upkeepView, type SourceMessage, type UpkeepDecideResult, type UpkeepRunStarted, type UpkeepView } from '../../console-data/upkeep'
import { placeOf, type Place } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/upkeep'(profile: string, bot: string): Promise<UpkeepView>
    'kotodama/upkeep-decide'(profile: string, bot: string, id: string, decision: Decision): Promise<UpkeepDecideResult>
    'kotodama/upkeep-run'(profile: string, bot: string): Promise<UpkeepRunStarted>
  }
}

const AUTHORITY = 4

/** The messages of a running runtime through recall's index (what the run read); without recall, from its stored history. */
async function runningMessages(runtime: Runtime, key: string, ids: string[]): Promise<Map<string, SourceMessage>> {
  const recall = runtime.part(recallPart)?.recall
  if (!recall?.enabled) return storedMessages(runtime.history(), key, ids, { bot: runtime.bot })
  const idx = await recall.index(key)
  await idx.idle()
  const found = new Map<string, SourceMessage>()
  for (const id of ids) {
    const n = idx.numberOf(id)
    const d = n === undefined ? undefined : idx.docs(n, n + 1)[0]
    if (d) found.set(id, { at: d.at, who: d.who, uid: d.uid, text: d.text, ...d.self ? { self: true } : {}, ...recall.recalled(d) ? { recalled: true } : {} })
  }
  return found
}

export function registerUpkeep(ctx: Context) {
  const options = { authority: AUTHORITY }
  /** the upkeep of the runtime, started when it is not running; an Error when upkeep is off or it cannot start */
  const upkeepOf = async (p: Place) => {
    // a runtime of a bot that is gone would stop at once, under the change it applies
    if (!p.runtime && !ctx.bots[p.bot]) throw new Error(`bot ${p.bot} is not connected: upkeep runs and applies changes in its running runtime`)
    const runtime = p.runtime ?? await ctx.kotodama.runtime(p.profile, p.bot)
    const part = runtime.part(upkeepPart)
    if (!part) throw new Error(`upkeep is off for ${p.profile.id} (upkeep.enabled)`)
    return part.upkeep
  }

  ctx.console.addListener('kotodama/upkeep', async (profile, bot) => {
    const p = await placeOf(ctx, profile, bot)
    const config = sectionOf(upkeepPart.section, p.profile)
    const running = p.runtime?.part(upkeepPart)?.upkeep
    const side = p.side
    return upkeepView({
      enabled: config.enabled, running: !!p.runtime, review: config.review, zone: p.runtime?.view.timezone ?? ctx.kotodama.checked.budgets.timezone,
      proposals: running ? running.proposals() : await proposalsAtHome(p.home),
      runs: running ? running.runs() : await runsAtHome(p.home),
      underway: running?.underway(),
      present: pr => presentText(p.home, pr, platformOf(bot)),
      messages: (key, ids) => p.runtime ? runningMessages(p.runtime, key, ids)
        : side ? storedMessages(side, key, ids, { bot, name: ctx.bots[bot]?.user?.name }) : Promise.resolve(new Map()),
    })
  }, options)

  ctx.console.addListener('kotodama/upkeep-decide', async (profile, bot, id, decision) => {
    if (decision !== 'accept' && decision !== 'reject') {
      return { ok: false, error: { name: 'Invalid', message: `decide with accept or reject, not ${decision}` } }
    }
    const p = await placeOf(ctx, profile, bot)
    // a reject writes no note: recorded in the home's book when the runtime cannot start
    const done = !p.runtime && !ctx.bots[bot] && decision === 'reject'
      ? await rejectAtHome(p.home, String(id), 'console', ctx.kotodama.clock.now(), ctx.kotodama.log)
      : await upkeepOf(p).then(
        u => u.decide(String(id), decision, 'console'),
        (e: Error) => ({ ok: false as const, error: { name: 'Unavailable', message: e.message } }),
      )
    if ('error' in done) return { ok: false, error: done.error }
    return { ok: true, state: done.proposal.state, ...done.proposal.error ? { error: done.proposal.error } : {} }
  }, options)

  // answers at once: a run over a busy day outlasts the console's 60-second wait for an answer; the
  // view shows it under way, and its figures when it ends
  ctx.console.addListener('kotodama/upkeep-run', async (profile, bot) => {
    const upkeep = await upkeepOf(await placeOf(ctx, profile, bot))
    upkeep.run('console').catch(e => ctx.kotodama.log.warn('upkeep: %s', e?.message ?? e))
    return upkeep.underway() ?? { reason: 'console', startedAt: ctx.kotodama.clock.now() }
  }, options)
}
