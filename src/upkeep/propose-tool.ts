// propose (SPEC §26): one change to the notes, in write's forms, with its reason and sources. It is
// checked here (sources, place, provenance, duplicate, size, the day's limit) and recorded in the
// book before it is answered; under `review: auto` it is applied at once, as write would.
import { z } from 'zod'
import type { Tool, TurnChat } from '../contract/tool'
import { oneForm, requestOf, WRITE_FIELDS } from '../tools/write'
import type { WriteRequest } from '../resources/types'
import { isPrivateNote, isPublicNote } from '../people/people-path'
import { BookNotWritten, type ProposalBook } from './proposal-book'
import { changeKey, type Proposal } from './proposal'
import { addedText, claimRefusal } from './provenance'
import { localUrl, memoryRel, placement, subjectOf, type PlacementDeps } from './placement'
import { resolveSources, type MessageIndex } from './sources'
import DESCRIPTION from './propose.txt'

/** the text one change may add, and its reason: a note is a few lines, not a transcript */
export const MAX_CHANGE_CHARS = 16_000
export const MAX_REASON_CHARS = 1_000

export type ProposeCode = 'no_sources' | 'forbidden' | 'duplicate' | 'too_large' | 'limit' | 'write_failed'
  | 'not_found' | 'no_match' | 'ambiguous_match' | 'invalid_url'
/** a write's own codes, as an applied change answers them */
const WRITE_CODES = ['forbidden', 'invalid_url', 'not_found', 'no_match', 'ambiguous_match', 'too_large', 'write_failed'] as const

export type ProposeResult = { ok: true; id: string; applied?: boolean } | { ok: false; error: { code: ProposeCode; message: string } }

const inputSchema = z.object({
  ...WRITE_FIELDS,
  reason: z.string().min(1).describe('why, in a sentence'),
  sources: z.array(z.string()).describe('history:// URLs of the messages it rests on'),
}).superRefine(oneForm)

type Input = z.infer<typeof inputSchema>

/** The run a propose tool belongs to: one chat of one conversation. */
export interface RunPlace {
  key: string
  chat?: TurnChat
  index: MessageIndex
  /** the URL of a message is this and its id */
  own: string
}

export interface ProposeDeps extends PlacementDeps {
  book: ProposalBook
  /** whether changes are applied at once (review: auto) */
  auto(): boolean
  /** changes still allowed today (maxChanges less what was proposed since the day began) */
  left(): number
  now(): number
  /** the text of the file at `rel` under local/, undefined when there is none */
  textOf(rel: string): Promise<string | undefined>
  /** applies a proposal recorded as applying; the proposal as it ended */
  apply(p: Proposal): Promise<Proposal>
  /** told of each proposal recorded, and of each applied */
  counted(what: 'proposed' | 'applied'): void
}

const refused = (code: ProposeCode, message: string): ProposeResult => ({ ok: false, error: { code, message } })

function sizeOf(change: WriteRequest): number {
  if ('content' in change) return change.content.length
  if ('append' in change) return change.append.length
  return 'edit' in change ? change.edit.find.length + change.edit.replace.length : 0
}

export function proposeTool(d: ProposeDeps, place: RunPlace): Tool<Input, ProposeResult> {
  const scope = { conversation: place.key, ...place.chat ? { chat: place.chat } : {} }
  return {
    description: DESCRIPTION.trim(),
    inputSchema: inputSchema as unknown as z.ZodType<Input>,
    program: { output: '{ ok: boolean, id?: string, applied?: boolean, error?: { code: string, message: string } }' },
    execute: async input => {
      const change = requestOf(input)
      if (sizeOf(change) > MAX_CHANGE_CHARS) {
        return refused('too_large', `a change adds at most ${MAX_CHANGE_CHARS} characters; a note keeps what matters, not a transcript`)
      }
      if (input.reason.length > MAX_REASON_CHARS) return refused('too_large', `a reason is at most ${MAX_REASON_CHARS} characters`)
      // cross mode: the run's chat is one channel of the conversation
      const channel = place.chat && place.key !== place.chat.channel ? place.chat.channel : undefined
      const sources = resolveSources(input.sources, { key: place.key, channel, index: place.index, own: place.own })
      if ('message' in sources) return refused('no_sources', sources.message)
      const at = placement(input.url, place.chat, scope, d)
      if ('message' in at) return refused('forbidden', at.message)
      if ('moveTo' in change) {
        const to = placement(change.moveTo, place.chat, scope, d)
        if ('message' in to) return refused('forbidden', to.message)
      }
      const old = 'content' in change ? await d.textOf(at.rel) : undefined
      const person = isPublicNote(at.rel) || isPrivateNote(at.rel)
      const claim = claimRefusal(addedText(change, old), sources.authors, { subject: subjectOf(at.rel, sources.authors.map(a => a.id), d.platform), person })
      if (claim) return refused('forbidden', claim)
      const url = localUrl(at.rel)
      const key = changeKey(url, 'moveTo' in change ? { moveTo: localUrl(memoryRel(change.moveTo)!) } : change)
      const taken = d.book.taken(key)
      if (taken) return refused('duplicate', `this change is proposal ${taken.id}, ${taken.state}; propose something else or nothing`)
      if (d.left() <= 0) return refused('limit', 'no more changes today (upkeep.maxChanges): stop here')
      const auto = d.auto()
      let p: Proposal
      try {
        p = await d.book.add({
          conversation: place.key, ...place.chat ? { chat: place.chat } : {}, at: d.now(), url, change, reason: input.reason.trim(),
          sources: input.sources.map(s => s.trim()), authors: sources.authors, state: auto ? 'applying' : 'pending', key,
          ...auto ? { decided: { at: d.now(), by: 'auto' } } : {},
        })
      } catch (e: any) {
        if (e instanceof BookNotWritten) return refused('write_failed', 'the proposal could not be recorded (the bot\'s disk refused it); nothing was changed')
        throw e
      }
      d.counted('proposed')
      if (!auto) return { ok: true, id: p.id }
      const done = await d.apply(p)
      if (done.state !== 'applied') {
        const code = (WRITE_CODES as readonly string[]).includes(done.error?.code ?? '') ? done.error!.code as ProposeCode : 'write_failed'
        return refused(code, `proposal ${p.id} could not be applied: ${done.error?.message ?? 'the write failed'}`)
      }
      d.counted('applied')
      return { ok: true, id: p.id, applied: true }
    },
  }
}
