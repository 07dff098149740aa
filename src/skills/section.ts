// The skills section of the system prompt (SPEC §24, §16): the allowed skills one line each,
// sorted by name, each description on one line of bounded length, so the text is the same on every
// request until the list changes (a prompt cache holds) and 50 skills stay near 1,500 tokens.
import type { Skill } from './library'

/** a description's budget in the prompt: an ASCII character costs 1, any other WIDE (a CJK one is about a token) */
export const DESCRIPTION_UNITS = 80
const WIDE = 3

/** One line, at most DESCRIPTION_UNITS, cut with '…'. */
export function clipDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  let units = 0
  let cut = -1
  let i = 0
  for (const ch of line) {
    units += ch.charCodeAt(0) < 128 ? 1 : WIDE
    if (units > DESCRIPTION_UNITS - 1 && cut < 0) cut = i
    if (units > DESCRIPTION_UNITS) return line.slice(0, cut).trimEnd() + '…'
    i += ch.length
  }
  return line
}

/** '' when no skill is allowed. */
export function skillsSection(skills: readonly Skill[]): string {
  if (!skills.length) return ''
  const lines = skills.map(s => `- ${s.name}: ${clipDescription(s.description)}`)
  return `## Skills\nBefore a task one of these covers, read skill://<name>/SKILL.md with read and follow it.\n${lines.join('\n')}`
}
