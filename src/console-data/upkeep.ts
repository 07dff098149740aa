// Upkeep as the console page reviews it (SPEC §26): each proposal with its target, its change as a
// diff, its reason and the messages it rests on, its state and who decided; and the last runs.
// Pending ones first (oldest first), then the decided ones, newest first. Times in budgets.timezone.
import type { WriteRequest } from '../resources/types'
import type { Proposal, ProposalState, SourceAuthor } from '../upkeep/proposal'
import type { RunReport } from '../upkeep/run-report'
import { parseHistoryUrl } from '../recall/history-url'
import { wallTime, zoneName } from '../util/day'
import { added, lineDiff, removed, type DiffLine } from './line-diff'

/** A message a source names, as the page shows it. */
export interface SourceMessage {
  at: number
  who: string
  uid: string
  text: string
  self?: boolean
  /** taken back by its author (SPEC §19): the page shows that, not the text */
  recalled?: boolean
}

export interface UpkeepSourceView {
  url: string
  /** the message id the URL names */
  id: string
  /** absent: no stored message has that id (the history was reset or the URL is not a message's) */
  message?: SourceMessage & { time: string }
}

export interface UpkeepChangeView {
  kind: 'content' | 'append' | 'edit' | 'remove' | 'moveTo'
  lines: DiffLine[]
  /** content and remove: whether the lines are against the file as it is now */
  againstPresent?: boolean
  moveTo?: string
}

export interface UpkeepProposalView {
  id: string
  conversation: string
  at: number
  time: string
  url: string
  change: UpkeepChangeView
  reason: string
  sources: UpkeepSourceView[]
  authors: SourceAuthor[]
  state: ProposalState
  decided?: { at: number; time: string; by: string }
  error?: { code: string; message: string }
}

export interface UpkeepRunView extends RunReport {
  time: string
}

export interface UpkeepView {
  /** upkeep.enabled of the profile */
  enabled: boolean
  /** whether the runtime runs (decisions and a run start it when it does not) */
  running: boolean
  review: 'owner' | 'auto'
  zone: string
  pending: number
  proposals: UpkeepProposalView[]
  /** newest first */
  runs: UpkeepRunView[]
  /** the run under way, if one is */
  underway?: { reason: string; startedAt: number; time: string }
}

/** What Run now answers: the run it started or joined; its figures come with the view once it ends. */
export interface UpkeepRunStarted {
  reason: string
  startedAt: number
}

export type UpkeepDecideResult =
  | { ok: true; state: ProposalState; error?: { code: string; message: string } }
  | { ok: false; error: { name: string; message: string } }

export interface UpkeepViewInput {
  enabled: boolean
  running: boolean
  review: 'owner' | 'auto'
  zone: string
  proposals: readonly Proposal[]
  runs: readonly RunReport[]
  underway?: { reason: string; startedAt: number }
  /** the file a proposal changes as it is now */
  present(p: Proposal): Promise<string | undefined>
  /** the messages of `conversation` with these ids (a missing one left out) */
  messages(conversation: string, ids: string[]): Promise<Map<string, SourceMessage>>
}

const open = (s: ProposalState) => s === 'pending' || s === 'failed' || s === 'applying'

export async function upkeepView(o: UpkeepViewInput): Promise<UpkeepView> {
  const time = (ms: number) => wallTime(ms, o.zone)
  const wanted = new Map<string, Set<string>>()
  for (const p of o.proposals) for (const s of p.sources) {
    const id = idOf(s)
    if (id !== undefined) (wanted.get(p.conversation) ?? wanted.set(p.conversation, new Set()).get(p.conversation)!).add(id)
  }
  const found = new Map<string, Map<string, SourceMessage>>()
  for (const [conversation, ids] of wanted) found.set(conversation, await o.messages(conversation, [...ids]))
  const ordered = [...o.proposals].sort((a, b) => Number(open(b.state)) - Number(open(a.state))
    || (open(a.state) ? a.at - b.at : (b.decided?.at ?? b.at) - (a.decided?.at ?? a.at)))
  const proposals = await Promise.all(ordered.map(async (p): Promise<UpkeepProposalView> => ({
    id: p.id, conversation: p.conversation, at: p.at, time: time(p.at), url: p.url,
    change: changeView(p.change, open(p.state) ? await o.present(p) : undefined),
    reason: p.reason,
    sources: p.sources.map(url => {
      const id = idOf(url) ?? ''
      const m = found.get(p.conversation)?.get(id)
      return m ? { url, id, message: { ...m, time: time(m.at) } } : { url, id }
    }),
    authors: p.authors, state: p.state,
    ...p.decided ? { decided: { ...p.decided, time: time(p.decided.at) } } : {},
    ...p.error ? { error: p.error } : {},
  })))
  return {
    enabled: o.enabled, running: o.running, review: o.review, zone: zoneName(o.zone),
    pending: o.proposals.filter(p => p.state === 'pending').length, proposals,
    runs: [...o.runs].reverse().map(r => ({ ...r, time: time(r.startedAt) })),
    ...o.underway ? { underway: { ...o.underway, time: time(o.underway.startedAt) } } : {},
  }
}

/** The change as lines: `present`, the file as it is, when the change is still to be made and the file could be read. */
export function changeView(c: WriteRequest, present: string | undefined): UpkeepChangeView {
  if ('append' in c) return { kind: 'append', lines: added(c.append) }
  if ('edit' in c) return { kind: 'edit', lines: [...removed(c.edit.find), ...added(c.edit.replace)] }
  if ('moveTo' in c) return { kind: 'moveTo', lines: [], moveTo: c.moveTo }
  if ('remove' in c) return { kind: 'remove', lines: present === undefined ? [] : removed(present), againstPresent: present !== undefined }
  return present === undefined
    ? { kind: 'content', lines: added(c.content), againstPresent: false }
    : { kind: 'content', lines: lineDiff(present, c.content), againstPresent: true }
}

function idOf(url: string): string | undefined {
  try {
    return parseHistoryUrl(url).id
  } catch {
    return undefined
  }
}
