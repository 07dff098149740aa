// An MCP tool's input schema as kotodama's tools carry one: the server's JSON Schema is what the
// model and the codemode declarations see (the AI SDK's `jsonSchema`), and a zod schema made
// from it checks inputs with the same messages as every other tool. The server validates again;
// a schema zod cannot read lets every object through rather than hiding the tool.
import { jsonSchema, type JSONSchema7 } from 'ai'
import { z } from 'zod'
import type { ToolInputSchema } from '../contract/tool'

type Parsed = ReturnType<z.ZodType['safeParse']>

export function mcpInputSchema(raw: unknown): ToolInputSchema<Record<string, unknown>> {
  const schema = (raw && typeof raw === 'object' ? raw : { type: 'object' }) as JSONSchema7
  let check: z.ZodType
  try {
    check = z.fromJSONSchema(schema as any) as z.ZodType
  } catch {
    check = z.record(z.string(), z.unknown())
  }
  // a valid input goes to the server as the model wrote it: no defaults filled in, no keys dropped
  const keep = (value: unknown, r: Parsed): Parsed => r.success ? { success: true, data: value } as Parsed : r
  return Object.assign(jsonSchema<Record<string, unknown>>(schema), {
    safeParse: (value: unknown) => keep(value, check.safeParse(value)),
    safeParseAsync: async (value: unknown) => keep(value, await check.safeParseAsync(value)),
  }) as ToolInputSchema<Record<string, unknown>>
}
