// The system prompt of an upkeep run (SPEC §26): the product text of prompt.md with the bot's name,
// then the notes as this chat's turns see them (memory's section: pinned files and the index).
// The same for every chunk of a chat, so the provider's prompt cache holds across them.
import PROMPT from './prompt.md'

export function upkeepSystem(o: { name: string; notes: string }): string {
  const head = PROMPT.trim().replace('{name}', o.name)
  return o.notes ? `${head}\n\n${o.notes.trim()}\n` : `${head}\n`
}
