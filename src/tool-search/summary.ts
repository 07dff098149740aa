// One line per source of the tools tool_search finds, for the system prompt (SPEC §18): an MCP
// server's id, how many of its tools are searched, and what it is for, in the server's own words
// (the first sentence of its instructions) or, without them, the words its tools' descriptions
// use most and other sources' use least (one form per stem). Tools other plugins registered share
// one line. Kept short: the lines go with every request (bench 14).
import type { Tool } from '../contract/tool'
import { clip } from '../util/clip'
import { plainWords, terms } from './terms'

/** Words of descriptions that say nothing about what a server is for. */
const GENERIC = new Set(['tool', 'tools', 'given', 'specified', 'specific', 'return', 'returns', 'optional', 'default', 'list', 'lists', 'value', 'values'])
const KEYWORDS = 5
const ABOUT_UNITS = 120

interface Group {
  label: string
  about?: string
  names: string[]
  /** how many of its tools use each word (by stem), and the word's first form */
  words?: Map<string, { form: string; tools: number }>
  descriptions: string[]
}

export function sourceLines(tools: Map<string, Tool>, hidden: ReadonlySet<string>): string {
  const groups = new Map<string, Group>()
  for (const [name, tool] of tools) {
    if (!hidden.has(name)) continue
    const key = tool.origin ? `mcp:${tool.origin.server}` : 'other'
    let g = groups.get(key)
    if (!g) groups.set(key, g = { label: tool.origin ? tool.origin.server : 'tools of other plugins', about: tool.origin?.about, names: [], descriptions: [] })
    g.names.push(name)
    g.descriptions.push(tool.description)
  }
  const all = [...groups.values()]
  for (const g of all) g.words = wordsOf(g)
  return all.map(g => line(g, all)).join('\n')
}

function line(g: Group, all: Group[]): string {
  const count = `${g.names.length} tool${g.names.length === 1 ? '' : 's'}`
  const about = firstSentence(g.about)
  if (about) return `- ${g.label}: ${count}. ${clip(about, ABOUT_UNITS)}`
  const words = keywords(g, all)
  return `- ${g.label}: ${count}${words.length ? ` about ${words.join(', ')}` : ''}`
}

function firstSentence(text: string | undefined): string | undefined {
  const t = text?.trim()
  if (!t) return undefined
  const first = t.split(/\n\s*\n|\n/)[0]
  const end = /[.!?。！？](\s|$)/.exec(first)
  return (end ? first.slice(0, end.index + 1) : first).trim()
}

/** How many of the group's tools use each word (by stem, once per tool), its own name's words left out. */
function wordsOf(g: Group): Map<string, { form: string; tools: number }> {
  const own = new Set(plainWords(g.label).map(stemOf))
  const words = new Map<string, { form: string; tools: number }>()
  for (const d of g.descriptions) {
    const seen = new Set<string>()
    for (const form of plainWords(d)) {
      const stem = stemOf(form)
      if (GENERIC.has(form) || own.has(stem) || seen.has(stem)) continue
      seen.add(stem)
      const w = words.get(stem)
      if (w) w.tools++
      else words.set(stem, { form, tools: 1 })
    }
  }
  return words
}

const stemOf = (word: string) => terms(word)[0] ?? word

/** The words many of the group's tools use and few other groups do, best first (tf-idf over groups). */
function keywords(g: Group, all: Group[]): string[] {
  const min = g.descriptions.length > 2 ? 2 : 1
  const score = (stem: string, tools: number) => tools * Math.log(1 + all.length / all.filter(o => o.words.has(stem)).length)
  return [...g.words].filter(([, w]) => w.tools >= min)
    .map(([stem, w]) => ({ form: w.form, score: score(stem, w.tools) }))
    .sort((a, b) => b.score - a.score).slice(0, KEYWORDS).map(w => w.form)
}
