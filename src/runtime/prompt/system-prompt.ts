// The system prompt: the persona, then the generated protocol (SPEC §3), whose prose is protocol.md,
// then the memory section (SPEC §13), then the time. The time changes every minute and the memory
// only when notes change, so the part a server can reuse from its prompt cache stays long.
import { prose } from '../../util/prose'
import { formatTime } from '../render-facts'
import PROTOCOL from './protocol.md'

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

export interface PromptOptions {
  persona: string
  mode: 'channel' | 'cross'
  bot: string
  botName?: string
  now: number
  schemes: string[]
  codemode: boolean
  /** read is a direct tool (always, unless codemode moves it into the sandbox) */
  readDirect: boolean
  imageInput: boolean
  visionModel: boolean
  /** memory is on: the protocol explains it and this section follows ('' shows nothing) */
  memory?: string
}

export function systemPrompt(o: PromptOptions): string {
  const protocol = prose(PROTOCOL, {
    cross: o.mode === 'cross', channel: o.mode !== 'cross', vision: o.visionModel, imageInput: o.imageInput, codemode: o.codemode,
    memory: o.memory !== undefined, memorySection: !!o.memory,
  }, {
    schemes: o.schemes.join(', '),
    readCall: o.readDirect ? 'read({url})' : 'tools.read({url}) inside a codemode program',
  })
  const selfId = o.bot.slice(o.bot.indexOf(':') + 1)
  const now = `Now: ${formatTime(o.now)} (${TIME_ZONE}). You are bot ${o.bot}${o.botName ? ` ("${o.botName}")` : ''}: your user id is ${selfId}, so <at id="${selfId}"/> mentions you.`
  return [o.persona.trim(), protocol, o.memory, now].filter(Boolean).join('\n\n')
}
