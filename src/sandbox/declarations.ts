// The sandbox tools as TypeScript declarations for the codemode tool's description (SPEC §8),
// generated from each tool's input schema (zod or any schema the AI SDK accepts).
import { asSchema } from 'ai'

type JSONSchema = Record<string, any>

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function comment(text: string | undefined, indent: string): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : ''
}

export function tsType(s: JSONSchema | boolean | undefined, indent = ''): string {
  if (s === undefined || s === true || (typeof s === 'object' && !Object.keys(s).filter(k => k !== 'description' && k !== '$schema').length)) return 'any'
  if (s === false) return 'never'
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  const union = s.anyOf ?? s.oneOf
  if (Array.isArray(union)) return union.map((u: JSONSchema) => tsType(u, indent)).join(' | ')
  if (Array.isArray(s.type)) return s.type.map((t: string) => tsType({ ...s, type: t }, indent)).join(' | ')
  switch (s.type) {
    case 'string': return 'string'
    case 'number': case 'integer': return 'number'
    case 'boolean': return 'boolean'
    case 'null': return 'null'
    case 'array': {
      const item = tsType(s.items, indent)
      return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`
    }
    case 'object': {
      const props: Record<string, JSONSchema> = s.properties ?? {}
      const required = new Set<string>(s.required ?? [])
      const inner = indent + '  '
      const lines = Object.entries(props).map(([k, v]) =>
        `${comment(v.description, inner)}${inner}${IDENT.test(k) ? k : JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${tsType(v, inner)}`)
      if (s.additionalProperties && typeof s.additionalProperties === 'object') lines.push(`${inner}[key: string]: ${tsType(s.additionalProperties, inner)}`)
      return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, any>'
    }
    default: return 'any'
  }
}

export interface DeclaredTool {
  name: string
  description: string
  inputSchema: unknown
  /** the result type, when known */
  output?: string
  /** input properties programs do not get to use (read's lifetime) */
  omit?: string[]
}

export function toolDeclarations(tools: DeclaredTool[]): string {
  const members: string[] = []
  for (const t of tools) {
    let schema: any
    try {
      schema = asSchema(t.inputSchema as any).jsonSchema
    } catch {}
    // A schema that only converts asynchronously is declared loosely rather than delaying the catalog.
    if (typeof schema?.then === 'function') schema = undefined
    if (schema?.properties && t.omit?.length) {
      schema = { ...schema, properties: Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !t.omit.includes(k))) }
    }
    const key = IDENT.test(t.name) ? t.name : JSON.stringify(t.name)
    const summary = t.description.split('\n')[0]
    members.push(`${comment(summary, '  ')}  ${key}(input: ${tsType(schema, '  ')}): Promise<${t.output ?? 'any'}>`)
  }
  return `declare const tools: {\n${members.join('\n')}\n}`
}
