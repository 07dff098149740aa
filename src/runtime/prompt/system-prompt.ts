// The system prompt: the persona, then the generated protocol (SPEC §3), whose prose is protocol.md,
// then the memory section (SPEC §13), then who the bot is. Nothing in it changes with the clock or
// per request (SPEC §16 "Stable first"): a server reuses it from its prompt cache until memory
// changes. The time goes into the history instead, as each turn's opening line (turn-line.ts).
import { prose } from '../../util/prose'
import PROTOCOL from './protocol.md'

export interface PromptOptions {
  persona: string
  mode: 'channel' | 'cross'
  bot: string
  botName?: string
  schemes: string[]
  codemode: boolean
  /** read is a direct tool (always, unless codemode moves it into the sandbox) */
  readDirect: boolean
  imageInput: boolean
  visionModel: boolean
  /** memory is on: the protocol explains it and this section follows ('' shows nothing) */
  memory?: string
  /** tools are found with tool_search (SPEC §18): one line per source of them */
  toolSources?: string
  /** the search tool is offered (SPEC §17) */
  recall?: boolean
}

export function systemPrompt(o: PromptOptions): string {
  const protocol = prose(PROTOCOL, {
    cross: o.mode === 'cross', channel: o.mode !== 'cross', vision: o.visionModel, imageInput: o.imageInput, codemode: o.codemode,
    memory: o.memory !== undefined, memorySection: !!o.memory, toolSearch: !!o.toolSources, searchCode: !!o.toolSources && o.codemode, recall: !!o.recall,
  }, {
    schemes: o.schemes.join(', '),
    readCall: o.readDirect ? 'read({url})' : 'tools.read({url}) inside a codemode program',
    toolSources: o.toolSources ?? '',
  })
  const selfId = o.bot.slice(o.bot.indexOf(':') + 1)
  const self = `You are bot ${o.bot}${o.botName ? ` ("${o.botName}")` : ''}: your user id is ${selfId}, so <at id="${selfId}"/> mentions you.`
  return [o.persona.trim(), protocol, o.memory, self].filter(Boolean).join('\n\n')
}
