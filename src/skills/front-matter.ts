// The front matter of a SKILL.md (the Agent Skills format OpenClaw and Anthropic use): YAML between
// `---` lines, then the body. Only `name` and `description` matter here, so this is a small strict
// reader of top-level scalars (plain, quoted, `|`/`>` blocks) rather than a YAML dependency; nested
// keys (`metadata:`) are skipped, so skills written for others load unchanged.

export interface FrontMatter {
  fields: Record<string, string>
}

const OPEN = /^---[ \t]*\r?\n/
const KEY = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/

/** The front matter's top-level scalar fields, or why there is none. */
export function readFrontMatter(text: string): FrontMatter | { error: string } {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const open = OPEN.exec(t)
  if (!open) return { error: 'no front matter (it must start with a --- line)' }
  const lines = t.slice(open[0].length).split(/\r?\n/)
  const close = lines.findIndex(l => /^---[ \t]*$/.test(l))
  if (close < 0) return { error: 'the front matter has no closing --- line' }
  const fields: Record<string, string> = {}
  for (let i = 0; i < close; i++) {
    const m = KEY.exec(lines[i])
    if (!m) continue // an indented line of a skipped nested value, a comment, a blank
    const raw = m[2] ?? ''
    let block = 0
    while (i + 1 + block < close && /^([ \t]|$)/.test(lines[i + 1 + block])) block++
    const following = lines.slice(i + 1, i + 1 + block)
    const value = scalar(raw, following)
    if (typeof value === 'object') return { error: `${m[1]}: ${value.error}` }
    if (value !== undefined) fields[m[1]] = value
    i += block
  }
  return { fields }
}

function scalar(raw: string, following: string[]): string | undefined | { error: string } {
  if (/^[|>][+-]?$/.test(raw)) return blockScalar(raw[0] === '>', following)
  if (raw === '') return undefined // a mapping or list follows: not a scalar
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw.replace(/[ \t]+#.*$/, '')) as string
    } catch {
      return { error: 'a double-quoted value that does not close on its line' }
    }
  }
  if (raw.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'(?:[ \t]+#.*)?$/.exec(raw)
    return m ? m[1].replace(/''/g, "'") : { error: 'a single-quoted value that does not close on its line' }
  }
  const plain = raw.replace(/[ \t]+#.*$/, '')
  const more = following.map(l => l.trim()).filter(Boolean)
  return [plain, ...more].join(' ')
}

/** `|` keeps line breaks, `>` folds them into spaces; indentation is the first line's. */
function blockScalar(folded: boolean, lines: string[]): string {
  const first = lines.find(l => l.trim() !== '')
  if (!first) return ''
  const indent = /^[ \t]*/.exec(first)![0].length
  const body = lines.map(l => l.slice(indent)).join('\n').replace(/\s+$/, '')
  return folded ? body.replace(/([^\n])\n(?=[^\n ])/g, '$1 ') : body
}
