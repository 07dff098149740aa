// The ranking behind tool_search (SPEC §18): BM25 (MiniSearch's BM25+) over each tool's name,
// description, and parameter names and descriptions, with the words of terms.ts. A prefix of a
// word of 4+ letters and a typo in a word of 6+ letters still match, for less. Built once per
// catalog version, on the first search. A query's words are widened with their synonyms
// (thesaurus.ts), which count half.
import MiniSearch from 'minisearch'
import { asSchema } from 'ai'
import type { Tool } from '../contract/tool'
import { terms } from './terms'
import { synonymsOf } from './thesaurus'

/** What a synonym of a query's word counts for, against the word itself. */
const SYNONYM_WEIGHT = 0.5

type JSONSchema = Record<string, any>

/** The tool's input as JSON Schema, or undefined when it only converts asynchronously (or not at all). */
export function jsonSchemaOf(tool: Tool): JSONSchema | undefined {
  try {
    const schema = (asSchema(tool.inputSchema as any) as any).jsonSchema
    return schema && typeof schema.then !== 'function' ? schema : undefined
  } catch {
    return undefined
  }
}

/** Parameter names, their descriptions and enum values, nested ones too (a few levels deep). */
export function parameterText(schema: JSONSchema | undefined, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 3) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries<JSONSchema>(schema.properties ?? {})) {
    parts.push(key)
    if (typeof value?.description === 'string') parts.push(value.description)
    if (Array.isArray(value?.enum)) parts.push(value.enum.filter((v: unknown) => typeof v === 'string').join(' '))
    parts.push(parameterText(value, depth + 1))
  }
  if (schema.items) parts.push(parameterText(schema.items, depth + 1))
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) parts.push(parameterText(branch, depth + 1))
  return parts.filter(Boolean).join(' ')
}

interface Doc {
  id: string
  name: string
  description: string
  params: string
}

export interface Hit {
  name: string
  score: number
}

export class ToolIndex {
  private search_: MiniSearch<Doc>

  constructor(tools: Map<string, Tool>) {
    this.search_ = new MiniSearch<Doc>({
      fields: ['name', 'description', 'params'],
      tokenize: terms,
      // terms() already lower-cases, stems and drops stop words
      processTerm: term => term,
      searchOptions: {
        boost: { name: 2, description: 1, params: 0.6 },
        prefix: term => term.length >= 4,
        fuzzy: term => /^[a-z]{6,}$/.test(term) ? 0.15 : false,
        combineWith: 'OR',
      },
    })
    this.search_.addAll([...tools].map(([name, tool]) => ({
      id: name, name, description: tool.description, params: parameterText(jsonSchemaOf(tool)),
    })))
  }

  get size(): number {
    return this.search_.documentCount
  }

  /** The best `limit` tools for the query, best first. */
  find(query: string, limit: number): Hit[] {
    const words = terms(query)
    const own = new Set(words)
    const all = [...words, ...synonymsOf(words)]
    return this.search_.search(query, { tokenize: () => all, boostTerm: term => own.has(term) ? 1 : SYNONYM_WEIGHT })
      .slice(0, limit).map(r => ({ name: String(r.id), score: r.score }))
  }
}
