// The bot's own messages, rebuilt from a conversation's history when it loads (SPEC §23): after a
// restart an unsend still knows which messages were its own, where and when they went, and which
// it took back already. Only what the platform's window can still reach is rebuilt.
import type { Entry } from '../history/entries'
import { normalizeTarget } from '../claims/channel-key'

export interface OwnSend {
  id: string
  channel: string
  /** when it went out (ms): the step's `sent` time, or the step's own time in an older history */
  at: number
}

export interface OwnSendsFound {
  sends: OwnSend[]
  /** ids of the `unsent` entries */
  unsent: string[]
}

type Part = { type: string; toolCallId?: string; toolName?: string; input?: any; output?: any }

/**
 * The messages the steps of `entries` delivered, sent at `since` or later. `channel`: where a call
 * without a target sent (channel mode's own channel); absent, such a call is passed over.
 */
export function ownSendsIn(entries: readonly Entry[], o: { channel?: string; since: number }): OwnSendsFound {
  const sends: OwnSend[] = []
  const unsent: string[] = []
  for (const e of entries) {
    if (e.type === 'unsent') unsent.push(e.id)
    if (e.type !== 'step') continue
    // the ids the step's send_message calls returned, with the channel each call named
    const where = new Map<string, string | undefined>()
    for (const [id, channel] of sendMessageIds(e.messages as { role: string; content: unknown }[])) where.set(id, channel)
    // a program's sends are in `sent` alone: they went to the conversation's own channel
    for (const id of Object.keys(e.sent ?? {})) if (!where.has(id)) where.set(id, undefined)
    for (const [id, named] of where) {
      const at = Number.isFinite(e.sent?.[id]) ? e.sent![id] : e.at
      const channel = named ?? o.channel
      if (channel && at >= o.since) sends.push({ id, channel, at })
    }
  }
  return { sends, unsent }
}

function* sendMessageIds(messages: { role: string; content: unknown }[]): Generator<[string, string | undefined]> {
  const channels = new Map<string, string | undefined>()
  for (const m of messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue
    for (const p of m.content as Part[]) {
      if (p.type !== 'tool-call' || p.toolName !== 'send_message' || !p.toolCallId) continue
      const named = p.input?.target?.channel
      channels.set(p.toolCallId, typeof named === 'string' ? normalizeTarget(named.trim()) : undefined)
    }
  }
  for (const m of messages) {
    if (m.role !== 'tool' || !Array.isArray(m.content)) continue
    for (const p of m.content as Part[]) {
      if (p.type !== 'tool-result' || !p.toolCallId || !channels.has(p.toolCallId)) continue
      for (const id of idsOf(p.output)) yield [id, channels.get(p.toolCallId)]
    }
  }
}

/** the ids a send_message result delivered: `ids` of a success, `sent` of a failure (null: a message of acts only) */
function idsOf(output: any): string[] {
  let value = output?.value
  if (output?.type === 'text' && typeof value === 'string') {
    try { value = JSON.parse(value) } catch { return [] }
  }
  const ids = value?.ok === true ? value.ids : value?.sent
  return Array.isArray(ids) ? ids.filter((id: unknown): id is string => typeof id === 'string') : []
}
