// History lines are checked when a conversation loads them (SPEC §10): valid JSON of the wrong
// shape is skipped with a warning instead of breaking every later turn of the channel.
import { modelMessageSchema } from 'ai'

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isOptionalNumber = (v: unknown): boolean => v === undefined || isNumber(v)
const isAttachmentItem = (i: unknown): boolean => isObject(i) && isString(i.url) && isString(i.mediaType) && isString(i.lifetime)

function factProblem(f: unknown): string | undefined {
  if (!isObject(f)) return 'a fact without its body'
  if (!isString(f.id) || !isNumber(f.at) || !isString(f.bot) || !isString(f.channel) || !isString(f.content)) {
    return 'a fact without id, at, bot, channel or content'
  }
  if (!isObject(f.user) || !isString(f.user.id) || !isString(f.user.name)) return 'a fact without its user'
  if (f.pulled !== undefined && typeof f.pulled !== 'boolean') return 'a fact with a malformed pulled mark'
  return undefined
}

function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || !messages.length) return 'a step without messages'
  for (const m of messages) if (!modelMessageSchema.safeParse(m).success) return 'a step whose messages are not model messages'
  return undefined
}

/** Why `v` is not a history entry, or undefined when it is one. */
export function entryProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'not an entry object'
  if (!isNumber(v.at)) return 'an entry without its time'
  switch (v.type) {
    case 'fact': return factProblem(v.fact)
    case 'note': return isString(v.text) ? undefined : 'a note without text'
    case 'step': {
      if (!isNumber(v.turn)) return 'a step without its turn'
      if (v.usage !== undefined && (!isObject(v.usage) || !isString(v.usage.model) || !isNumber(v.usage.latencyMs))) return 'a step with malformed usage'
      if (v.loaded !== undefined && !(Array.isArray(v.loaded) && v.loaded.every(isString))) return 'a step with malformed loaded tools'
      return messagesProblem(v.messages)
    }
    case 'turn': return isNumber(v.turn) && isString(v.reason) ? undefined : 'a turn without number or reason'
    case 'attachments': {
      if (!isNumber(v.turn) || !isString(v.id) || !Array.isArray(v.items)) return 'attachments without turn, id or items'
      return v.items.every(isAttachmentItem) ? undefined : 'attachments with a malformed item'
    }
    case 'wait': return isOptionalNumber(v.seconds) && isOptionalNumber(v.messages) ? undefined : 'a wait with malformed windows'
    case 'declined': return isString(v.reason) && isString(v.why) ? undefined : 'a declined wake without reason or why'
    case 'failure': return isNumber(v.turn) && isString(v.model) && isString(v.error) ? undefined : 'a failure without turn, model or error'
    case 'recalled': return isString(v.id) ? undefined : 'a recalled entry without the id'
    case 'unsent': return isString(v.id) ? undefined : 'an unsent entry without the id'
    case 'transcript': {
      const m = v.message
      if (!isString(v.url) || !isObject(m) || !isString(m.id) || !isString(m.channel) || !isObject(m.user)) return 'a transcript without url or message'
      return isOptionalNumber(v.seconds) && (isString(v.text) || isString(v.why)) ? undefined : 'a transcript without text or why'
    }
    case 'shown': return Array.isArray(v.ids) && v.ids.every(isString) ? undefined : 'a shown entry without ids'
    default: return `an entry of unknown type ${JSON.stringify(String(v.type)).slice(0, 40)}`
  }
}
