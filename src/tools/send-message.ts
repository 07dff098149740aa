// send_message — the only way the mind speaks (SPEC §4.1).
import h from '@satorijs/element'
import { z } from 'zod'
import type { SendTarget, ToolHost } from './types'
import type { Tool, ToolCallContext } from '../contract/tool'
import { typingDelay } from '../typing/delay'
import { visibleText } from '../util/elements'
import { prose } from '../util/prose'
import { readMessage, type Dropped } from './send-elements'
import DESCRIPTION from './send-message.txt'
import { checkRefs } from './send-refs'
import { resolveSources } from './send-sources'
import { outboundBudget, outboundSent, resolveOutbound, type OutboundAct, type OutboundOutcome } from './send-outbound'
import type { OutboundSend } from './outbound'
import { turnScope } from '../contract/turn-scope'

// `null` stands for a message that held only acts (SPEC §23): nothing was sent in its place
const RESULT_TYPE = `{ ok: true, ids: (string | null)[], dropped?: { src: string, code: string, message: string }[], voices?: string[] }`
  + ` | { ok: false, error: { name: string, message: string }, sent: (string | null)[], failedAt: number }`

const targetSchema = z.object({
  channel: z.string().min(1).describe('channel key as shown in a [channel ...] header'),
  bot: z.string().optional().describe('platform:selfId; defaults to this bot'),
})

/** messages one call may carry (a turn says 1–3: the most is not declared, so it does not invite many) */
const MAX_MESSAGES = 20

const fields = {
  messages: z.array(z.string()).min(1).refine(m => m.length <= MAX_MESSAGES, `at most ${MAX_MESSAGES} messages in one call`)
    .describe('chat messages, sent in order'),
  mode: z.enum(['element', 'text']).optional().describe('element (default): element markup; text: literal text'),
  continue: z.boolean().optional().describe('true: keep the turn going after this call'),
}

/** cross mode: where to send is required of every call */
const crossSchema = z.object({ ...fields, target: targetSchema.optional().describe('where to send') })
/** channel mode: no target is declared (SPEC §27 "Fewer tokens"); one given anyway is still checked (pickTarget) */
const channelSchema = z.object(fields).loose() as unknown as typeof crossSchema

export type SendMessageInput = z.infer<typeof crossSchema>

export type { Dropped }
/** `voices`: the asset:// URLs of the voice messages delivered (SPEC §20), in order */
export type SendMessageResult =
  | { ok: true; ids: (string | null)[]; dropped?: Dropped[]; voices?: string[] }
  | { ok: false; error: { name: string; message: string }; sent: (string | null)[]; failedAt: number; dropped?: Dropped[]; voices?: string[] }

class SendError extends Error {
  constructor(readonly kind: string, message: string, readonly index = 0) {
    super(message)
  }
}

function abortReason(signal: AbortSignal): string {
  const r = signal.reason
  return r?.message ?? (r !== undefined ? String(r) : 'aborted')
}

function isEmpty(elements: h[]): boolean {
  return elements.every(el => el.type === 'text' ? !String(el.attrs.content ?? '').trim() : false)
}

function pickTarget(input: SendMessageInput, host: ToolHost): SendTarget {
  if (host.mode === 'cross') {
    if (!input.target) {
      throw new SendError('TargetRequired', 'this mind serves several channels: pass target {channel, bot?} copied from a [channel ...] header')
    }
    const t = host.resolveTarget(input.target)
    if ('error' in t) throw new SendError('InvalidTarget', t.error)
    return t
  }
  const own = host.ownTarget()
  if (!own) throw new SendError('InvalidTarget', 'this conversation has no channel to speak in')
  if (input.target) {
    const t = host.resolveTarget(input.target)
    if ('error' in t || t.channel !== own.channel || t.bot !== own.bot) {
      throw new SendError('InvalidTarget', `this conversation speaks only in channel "${own.channel}"; leave target out`)
    }
  }
  return own
}

export function sendMessageTool(host: ToolHost): Tool<SendMessageInput, SendMessageResult> {
  const lines = host.elements?.lines ?? []
  return {
    description: prose(DESCRIPTION, { cross: host.mode === 'cross', parts: lines.length > 0 }, { parts: lines.join('\n') }),
    program: { output: RESULT_TYPE },
    inputSchema: host.mode === 'cross' ? crossSchema : channelSchema,
    // The whole call holds the conversation's send queue, preparation included, so two calls
    // in one step go out in the order the model wrote them even when the first has media to load.
    execute: (input, ctx) => host.serialize(() => sendMessages(input, ctx, host)),
  }
}

async function sendMessages(input: SendMessageInput, ctx: ToolCallContext, host: ToolHost): Promise<SendMessageResult> {
  const dropped: Dropped[] = []
  const sent: (string | null)[] = []
  const voices: string[] = []
  let index = 0
  // people writing while it types stop the messages not yet sent (SPEC §15 `yield`)
  // its controller is made only when a typing pause needs the signal: most sends never pause (bench 6)
  let arrived = false
  let interrupt: AbortController | undefined
  const unwatch = ctx.turn.watchArrivals?.(() => {
    arrived = true
    interrupt?.abort()
  })
  try {
    const target = pickTarget(input, host)
    if (!host.isOnline(target.bot)) throw new SendError('BotUnavailable', `bot ${target.bot} is not online`)
    // Parse and resolve everything first: bad input fails before anything is sent.
    const prepared = await prepare(input, ctx, host, target, dropped)
    for (let n = 0; n < prepared.length; n++) {
      const { content, text, at, outbound, speechMs, spoken, acts } = prepared[n]
      index = at
      // a message of acts only is no chat message: no pause, no send, `null` in its place (SPEC §23)
      if (!content) {
        if (ctx.signal.aborted) throw new SendError('SendFailed', `not made: the call was aborted (${abortReason(ctx.signal)})`, at)
        sent.push(null)
        await makeActs(acts, dropped)
        outboundSent(outbound, ctx.turn)
        ctx.progress?.(n + 1)
        continue
      }
      // a voice message's pause is its speech: the time it takes to say it
      let delay = speechMs || typingDelay(text, host.typing, () => host.random())
      // The model's thinking since the wake-up (or the last message) counts as typing.
      if (n === 0) delay -= host.now() - (ctx.turn.lastSpokeAt ?? ctx.turn.wokeAt)
      if (delay > 0 && !arrived) {
        host.showTyping(target)
        await host.sleep(delay, AbortSignal.any([ctx.signal, (interrupt ??= new AbortController()).signal])).catch(() => {})
      }
      // A program that ended (timeout, abort) speaks no more (SPEC §10).
      if (ctx.signal.aborted) throw new SendError('SendFailed', `not sent: the call was aborted (${abortReason(ctx.signal)})`, at)
      if (arrived) throw new SendError('Interrupted', interrupted(at, input.messages.length), at)
      let ids: string[]
      try {
        ids = await host.deliver(target, content)
      } catch (e: any) {
        throw new SendError('SendFailed', e?.message || String(e), at)
      }
      sent.push(...(ids ?? []))
      voices.push(...spoken)
      ctx.turn.lastSpokeAt = host.now()
      // kept with the step: an unsend's window after a restart (SPEC §23)
      for (const id of ids ?? []) (ctx.turn.sentAt ??= {})[id] = ctx.turn.lastSpokeAt
      // a part's element counts against the turn's cap, and as used (a sticker's uses), once it is in the chat
      outboundSent(outbound, ctx.turn)
      // acts after their message is in the chat: an unsend may name what was just sent
      await makeActs(acts, dropped)
      ctx.progress?.(n + 1)
    }
    return { ok: true, ids: sent, ...dropped.length ? { dropped } : {}, ...voices.length ? { voices } : {} }
  } catch (e: any) {
    const error = e instanceof SendError
      ? { name: e.kind, message: e.message }
      : { name: 'SendFailed', message: e?.message ?? String(e) }
    const failedAt = e instanceof SendError ? e.index : index
    const result: SendMessageResult = { ok: false, error, sent, failedAt }
    if (dropped.length) result.dropped = dropped
    if (voices.length) result.voices = voices
    return result
  } finally {
    unwatch?.()
  }
}

/** `content` empty: the message holds only acts */
interface Prepared {
  content: string; text: string; at: number; outbound: Pick<OutboundOutcome, 'tags' | 'sent'>; speechMs: number; spoken: string[]; acts: OutboundAct[]
}

/** The acts of a sent message, in order; one the platform refuses is reported in `dropped` and the rest go on. */
async function makeActs(acts: readonly OutboundAct[], dropped: Dropped[]): Promise<void> {
  for (const a of acts) {
    const refused = await a.act().catch((e: any) => ({ code: 'send_failed', message: String(e?.message ?? e) }))
    if (refused) dropped.push({ src: a.src, ...refused })
  }
}

/**
 * Every message parsed, its references checked, its stickers and media resolved. A message left
 * empty because its stickers were dropped is left out (the rest is sent; the drop says so); if that
 * leaves nothing to send, the call fails so the turn goes on and the mind can answer otherwise.
 */
async function prepare(input: SendMessageInput, ctx: ToolCallContext, host: ToolHost, target: SendTarget, dropped: Dropped[]): Promise<Prepared[]> {
  const prepared: Prepared[] = []
  const budget = outboundBudget(host.elements, ctx.turn)
  const refs = host.refs?.(target)
  const { bot, channel, guildId, rawChannel } = target
  const send: OutboundSend = {
    bot, signal: ctx.signal, paid: ctx.paid, target: { channel, guildId, rawChannel }, refs, own: host.own?.(target),
    firstInTurn(key) {
      const marks = ctx.turn.outboundMarks ??= new Set()
      return !marks.has(key) && !!marks.add(key)
    },
  }
  for (let index = 0; index < input.messages.length; index++) {
    try {
      const raw = input.messages[index]
      const parsed = input.mode === 'text' ? [h.text(raw)] : readMessage(raw, dropped, host.elements)
      const checked = refs && input.mode !== 'text' ? checkRefs(parsed, refs, dropped) : parsed
      const outbound = await resolveOutbound(checked, host.elements, budget, send, dropped)
      const elements = await resolveSources(outbound.elements, host, dropped, ctx.signal, turnScope(ctx.turn))
      if (isEmpty(elements) && outbound.acts.length) {
        prepared.push({ content: '', text: '', at: index, outbound, speechMs: 0, spoken: [], acts: outbound.acts })
        continue
      }
      if (isEmpty(elements) && outbound.lastDropped) {
        outbound.lastDropped.message += ` (message ${index} had nothing else, so it was not sent)`
        continue
      }
      if (isEmpty(elements)) throw new SendError('InvalidMessage', `message ${index} is empty${dropped.length ? ' after its media were dropped' : ''}`, index)
      prepared.push({ content: elements.join(''), text: visibleText(elements), at: index, outbound,
        speechMs: Math.round(outbound.seconds * 1000), spoken: outbound.urls, acts: outbound.acts })
    } catch (e: any) {
      throw e instanceof SendError ? e : new SendError('SendFailed', e?.message ?? String(e), index)
    }
  }
  if (!prepared.length) throw new SendError('InvalidMessage', 'nothing to send: every message held only elements that were left out (see dropped)')
  return prepared
}

function interrupted(from: number, count: number): string {
  const held = from === count - 1 ? `message ${from} was` : `messages ${from} to ${count - 1} were`
  return `people wrote while you were typing, so ${held} not sent. Their new messages are in front of you now: `
    + 'read them, then decide what still needs saying (send it again only if it still fits).'
}
