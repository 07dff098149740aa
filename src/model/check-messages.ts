// The prompt check the SDK's generateText does on every step, done once per message object:
// history messages never change, so a message validated before is valid now. Same schemas, same
// verdict, same error (InvalidPromptError) as the SDK.
import {
  assistantModelMessageSchema,
  InvalidPromptError,
  modelMessageSchema,
  systemModelMessageSchema,
  toolModelMessageSchema,
  userModelMessageSchema,
  type ModelMessage,
} from 'ai'
import { knownValid } from './known-valid'

const validated = new WeakSet<object>()

// modelMessageSchema is a union on `role`: the role's own schema gives its verdict without
// trying the failing branches first.
const BY_ROLE: Record<string, { safeParse(v: unknown): { success: boolean }; safeParseAsync(v: unknown): Promise<{ success: boolean }> }> = {
  system: systemModelMessageSchema as any, user: userModelMessageSchema as any,
  assistant: assistantModelMessageSchema as any, tool: toolModelMessageSchema as any,
}

export async function checkMessages(messages: ModelMessage[]): Promise<void> {
  for (const m of messages) {
    if (validated.has(m)) continue
    // the shapes a history is made of: known valid without zod (known-valid.ts); user text is rebuilt per request
    if (knownValid(m)) {
      if (typeof m.content !== 'string') validated.add(m)
      continue
    }
    const schema = BY_ROLE[(m as any)?.role]
    let ok = false
    if (schema) {
      try {
        ok = schema.safeParse(m).success
      } catch {
        ok = (await schema.safeParseAsync(m)).success
      }
    }
    if (!ok) {
      // the union's own error, as the SDK would throw it
      const r = await (modelMessageSchema as any).safeParseAsync(m)
      throw new InvalidPromptError({ prompt: messages, message: 'The messages do not match the ModelMessage[] schema.', cause: r.error })
    }
    validated.add(m)
  }
}

