// Reactions people add (SPEC §23), gathered per message: the first reaction to a message opens a
// window; those to the same message inside it join its tally; the tally is stored as one fact
// when the window ends, or before the next turn of its conversation (so that turn reads it). A
// storm of reactions is a few facts and no model call; memory is bounded: a runtime holds at most
// MAX_OPEN tallies (the oldest is stored early), each at most a few names, ids and emoji kinds.
import type { Fact, ReactionTally } from '../history/entries'
import type { Clock, Timer } from '../util/clock'

/** One reaction as the edge hands it: the emoji as the mind reads it (a Unicode emoji, a face's name). */
export interface ReactionSeen {
  /** the fact's frame: bot, channel, direct, guildId */
  where: Pick<Fact, 'bot' | 'channel' | 'direct' | 'guildId'>
  to: string
  user: { id: string; name: string }
  emoji: string
  /** how many of this emoji (NapCat's `count`, 1 for Satori) */
  count: number
  /** taken back (NapCat's `is_add: false`, Satori's reaction-removed): only a tally still open forgets it */
  removed?: boolean
  at: number
}

export interface GatherDeps {
  clock: Clock
  /** how long a message's tally stays open (ms) */
  windowMs: number
  conversationOf(channel: string): string
  /** stores the tally as a fact of its conversation (through the runtime, as a live fact) */
  store(fact: Fact): Promise<unknown>
  failed(e: unknown): void
}

/** tallies open at once in a runtime; one more stores the oldest */
export const MAX_OPEN = 64
/** names a tally keeps (the rest are `others`) */
const NAMES = 3
/** distinct people a tally tells apart; past that each reaction counts as one more person */
const IDS = 200
/** emoji kinds a tally keeps; the rest are `more` */
const KINDS = 8

interface Open {
  conversation: string
  first: Fact
  tally: ReactionTally
  ids: Set<string>
  total: number
  timer: Timer
}

export class ReactionGather {
  /** by conversation and message, in the order opened (a Map keeps it: the first is the oldest) */
  private open = new Map<string, Open>()
  private seq = 0

  constructor(private d: GatherDeps) {}

  get size(): number {
    return this.open.size
  }

  add(r: ReactionSeen): void {
    const conversation = this.d.conversationOf(r.where.channel)
    const key = `${conversation}\u0000${r.where.channel}\u0000${r.to}`
    let o = this.open.get(key)
    if (r.removed) {
      if (o) this.takeBack(key, o, r)
      return
    }
    if (!o) {
      if (this.open.size >= MAX_OPEN) this.close(this.open.keys().next().value!)
      o = this.opened(key, conversation, r)
    }
    const t = o.tally
    if (!o.ids.has(r.user.id) || o.ids.size >= IDS) {
      if (o.ids.size < IDS) o.ids.add(r.user.id)
      if (t.by.length < NAMES) t.by.push(r.user)
      else t.others++
    }
    const n = Math.max(1, Math.min(1000, Math.floor(r.count) || 1))
    o.total += n
    const kind = t.emoji.find(e => e[0] === r.emoji)
    if (kind) kind[1] += n
    else if (t.emoji.length < KINDS) t.emoji.push([r.emoji, n])
    else t.more = (t.more ?? 0) + n
  }

  /** Stores the open tallies of `conversation` now (before its turn). */
  async flush(conversation: string): Promise<void> {
    const keys = [...this.open.keys()].filter(k => this.open.get(k)!.conversation === conversation)
    await Promise.all(keys.map(k => this.close(k)))
  }

  /** Forgets the open tallies of `conversation` (a reset), or all of them (stop); returns how many. */
  drop(conversation?: string): number {
    let n = 0
    for (const [k, o] of this.open) {
      if (conversation !== undefined && o.conversation !== conversation) continue
      o.timer.cancel()
      this.open.delete(k)
      n++
    }
    return n
  }

  private opened(key: string, conversation: string, r: ReactionSeen): Open {
    const first: Fact = { id: `reaction-${r.at}-${++this.seq}`, at: r.at, ...r.where, user: r.user, content: '', notice: 'reaction' }
    const timer = this.d.clock.setTimeout(() => void this.close(key), this.d.windowMs).unref()
    const o: Open = { conversation, first, tally: { to: r.to, by: [], others: 0, emoji: [] }, ids: new Set(), total: 0, timer }
    this.open.set(key, o)
    return o
  }

  /** A reaction taken back while its tally is open: one less of that emoji (a tally left empty is forgotten). */
  private takeBack(key: string, o: Open, r: ReactionSeen): void {
    const kind = o.tally.emoji.find(e => e[0] === r.emoji)
    if (!kind) return
    const n = Math.min(kind[1], Math.max(1, Math.floor(r.count) || 1))
    kind[1] -= n
    o.total -= n
    if (!kind[1]) o.tally.emoji = o.tally.emoji.filter(e => e !== kind)
    if (o.total <= 0) {
      o.timer.cancel()
      this.open.delete(key)
    }
  }

  private close(key: string): Promise<unknown> {
    const o = this.open.get(key)
    if (!o) return Promise.resolve()
    o.timer.cancel()
    this.open.delete(key)
    const fact: Fact = { ...o.first, user: o.tally.by[0] ?? o.first.user, content: reactionText(o.tally), reactions: o.tally }
    return this.d.store(fact).catch(e => this.d.failed(e))
  }
}

/** The tally as plain words, names unsanitized (the stored `content`: the console and search read it; lines render from `reactions`). */
export function reactionText(t: ReactionTally): string {
  const more = t.more ? ` +${t.more}` : ''
  return `reacted ${t.emoji.map(([e, n]) => n > 1 ? `${e}×${n}` : e).join(' ')}${more} to #${t.to}`
}
