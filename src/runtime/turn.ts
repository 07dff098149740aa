// The turn loop (SPEC §4.6): one model call per step, then the step's tool calls, then the stop rule.
import { callModel, offerTools, type ModelStep } from '../model/call-model'
import { stepTokens } from '../model/calls'
import { FailedStep } from '../model/failover'
import { describeFailure } from '../model/failure'
import { declaredChars } from '../model/context-size'
import { loadCalled, stepTools } from '../tool-search'
import { toolAttachments } from './request/attachment-entries'
import { runCalls, stepMessages } from '../tools/run-call'
import { stepEndsTurn } from './stop-rule'
import { strayStep } from './stray-text'
import { takeSent } from './own-send'
import type { TurnPort, TurnRequest } from './turn-port'
import type { Entry, LiveStep } from '../history/entries'
import { stepUsage } from '../usage/book'
import { BudgetExceeded, turnPayer } from '../contract/budget'
import { withPayer } from '../model/payer-scope'
import { heldTurn } from './budget-reply'
import type { TurnState } from '../contract/tool'

export async function runTurn(port: TurnPort, req: TurnRequest): Promise<void> {
  const state = port.beginTurn(req)
  // every request of the turn, a program's or a tool's included, pays for its conversation and authors
  return withPayer(turnPayer(state), () => turnSteps(port, req, state))
}

async function turnSteps(port: TurnPort, req: TurnRequest, state: TurnState): Promise<void> {
  const { logger, profile } = port
  logger.debug('%s: turn %d starts (%s)', port.key, state.number, req.reason)
  let strays = 0
  let why = 'maxSteps reached'
  try {
    for (let step = 0; step < profile.maxSteps && !port.signal.aborted; step++) {
      port.flushInbox()
      const handle = port.model()
      if (!handle) {
        logger.warn('profile %s: model "%s" is not available; the turn ends', profile.id, profile.model)
        why = 'no model'
        return
      }
      // many tools: the hidden ones are declared once this turn loaded them (SPEC §18)
      const all = port.tools()
      const tools = stepTools(all, state)
      const system = port.system()
      const models = port.calls()
      // the system prompt and tool declarations go with every request; the window gets the rest
      const toolChars = declaredChars(tools)
      const fixedChars = system.length + toolChars
      const request = await port.buildRequest(models.health.sizes.windowChars(handle.config, fixedChars))
      let result, usage
      // the step is stamped with the time its model was called (the console, issue 21)
      const calledAt = port.clock.now()
      try {
        const offered = offerTools(tools)
        const answer = await models.run<ModelStep>({
          kind: 'step', model: handle, key: port.key, signal: port.signal, tokens: r => stepTokens(r.usage),
          call: h => callModel(h, { system, messages: request.messages, tools: offered, hidden: name => all.get(name), signal: port.signal }),
        })
        result = answer.result!
        usage = stepUsage(answer.handle.config.id, answer.latencyMs, result.usage)
        models.health.sizes.observe(answer.handle.config, system.length + request.chars, toolChars, usage.promptTokens)
      } catch (e: any) {
        if (e instanceof BudgetExceeded) {
          // the step before this one completed and is stored: the turn ends quietly (SPEC §22)
          why = `held by the ${e.hold.budget} budget`
          return await heldTurn(port, state, e)
        }
        why = 'model call failed'
        if (port.signal.aborted) return
        const failed = e instanceof FailedStep ? e.handle : handle
        // in the server's own words (SPEC §11): the log, and the turn on the console page
        const error = port.redact.text(describeFailure(e instanceof FailedStep ? e.error : e, failed.config.timeoutMs))
        logger.warn('conversation %s: the call to model "%s" failed, the turn ends: %s', port.key, failed.config.id, error)
        const latency = e instanceof FailedStep && e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}
        void port.append([{ type: 'failure', at: port.clock.now(), turn: state.number, model: failed.config.id, error, ...latency }])
        return
      }
      if (!result.calls.length) {
        const end = await strayStep(port, state, { assistant: result.assistant, text: result.text, count: ++strays, shownOnce: request.shownOnce, usage })
        if (end) {
          why = `plain text (${profile.strayText})`
          return
        }
        continue
      }
      // shown while its calls run (typing pauses can take seconds), each delivered message as it goes
      const live: LiveStep = { at: calledAt, turn: state.number, assistant: result.assistant, usage, delivered: {} }
      port.showStep?.(live)
      const loadedBefore = state.loaded?.length ?? 0
      const runner = { logger: port.logger, stores: port.stores, redact: port.redact, signal: port.toolSignal }
      const calls = await runCalls(runner, state, all, result.calls, (id, n) => {
        live.delivered[id] = n
        port.showStep?.(live)
      })
      loadCalled(state, tools, calls)
      const loaded = state.loaded?.slice(loadedBefore) ?? []
      logger.debug('%s: turn %d step %d: %s', port.key, state.number, step + 1, calls.map(c => c.valid ? c.name : `${c.name} (invalid)`).join(', '))
      const at = port.clock.now()
      const messages = stepMessages(result.assistant, calls)
      const sent = takeSent(state)
      const entries: Entry[] = [{ type: 'step', at: calledAt, turn: state.number, messages, usage, ...(loaded.length ? { loaded } : {}), ...sent }]
      for (const c of calls) {
        const attached = toolAttachments({ at, turn: state.number, callId: c.id, tool: c.name, items: c.attachments })
        if (attached) entries.push(attached)
      }
      // Written in order behind the turn (the store never reorders); a stop waits for the writes.
      void port.append(entries)
      port.showStep?.(undefined)
      // The response is stored: only now do the `once` images of this request count as shown.
      port.markShown(request.shownOnce)
      if (stepEndsTurn(calls)) {
        why = 'closing action'
        return
      }
    }
  } finally {
    if (why === 'maxSteps reached' && !port.signal.aborted) {
      logger.info('conversation %s: turn %d stopped after maxSteps (%d steps)', port.key, state.number, profile.maxSteps)
    }
    logger.debug('%s: turn %d ends (%s)', port.key, state.number, port.signal.aborted ? 'stopped' : why)
    port.endTurn(state)
  }
}
