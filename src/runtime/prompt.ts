// The system prompt: the persona, then the generated protocol (SPEC §3).
import { formatTime } from './render-facts'

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
}

export function systemPrompt(o: PromptOptions): string {
  const parts = [o.persona.trim(), '## How you live in this chat', speaking(o), reading(o)]
  if (o.codemode) parts.push(codemode())
  const selfId = o.bot.slice(o.bot.indexOf(':') + 1)
  parts.push(`Now: ${formatTime(o.now)} (${TIME_ZONE}). You are bot ${o.bot}${o.botName ? ` ("${o.botName}")` : ''}: your user id is ${selfId}, so <at id="${selfId}"/> mentions you.`)
  return parts.filter(Boolean).join('\n\n')
}

function speaking(o: PromptOptions): string {
  return [
    'Chat messages reach you as lines `[time] name (user id) #message id: content`. Lines in square brackets without a name are notes from the runtime, not from people.',
    o.mode === 'cross'
      ? 'You serve several channels at once. Each run of messages is preceded by a `[channel bot=... channel=...]` header; to answer, pass that channel (and bot) as `target` to send_message.'
      : 'You are in one channel; everything you send goes there.',
    '- Speak only with the send_message tool. Plain text you write outside a tool call reaches nobody.',
    '- Split what you say into short chat messages, as a person types; they go out with typing pauses.',
    '- To stay silent, call finish. Not every message needs an answer: reply when you are addressed or have something worth saying.',
    '- To come back later without being addressed, call wait with seconds and/or messages; it ends your turn.',
    '- A send_message without continue:true ends your turn. Use continue:true when you still want to read or do something after it.',
  ].join('\n')
}

function reading(o: PromptOptions): string {
  const lines = [
    `Resources are addressed by URL (schemes here: ${o.schemes.join(', ')}). People's media appear as asset:// URLs; long tool results are archived as artifact:// URLs; local:// is your own folder.`,
    `${o.readDirect ? 'read({url})' : 'tools.read({url}) inside a codemode program'} shows any of them. Line selectors stand before the query: \`:N\` from line N, \`:A-B\` lines A to B, \`:A+C\` C lines from A. \`?view=meta\` shows metadata only. A truncated page ends with a note holding the exact read call that continues it.`,
  ]
  if (o.visionModel) lines.push('For an image, read(url + "?question=...") asks a vision model about it and returns its answer.')
  if (o.imageInput) lines.push('Images can be shown to you; read an image URL to look at it.')
  return lines.join('\n')
}

function codemode(): string {
  return 'codemode({code}) runs a JavaScript program (body of an async function) that can call tools as `await tools.name(input)`, several at once with Promise.all, and returns JSON. Use it to read, filter and combine data in one step; return only what you need to see.'
}
