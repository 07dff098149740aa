// What a turn keeps between steps instead of making again (issue 26): each cache answers as the
// work it saves would, and is made again when what it is keyed on changes.
import { expect } from 'chai'
import { assistantModelMessageSchema, toolModelMessageSchema, userModelMessageSchema } from 'ai'
import { z } from 'zod'
import { Harness, call } from '../support/harness'
import { SystemPromptCache, systemPrompt, type PromptOptions } from '../../src/runtime/prompt/system-prompt'
import { knownValid } from '../../src/model/known-valid'
import { declaredChars } from '../../src/model/context-size'
import { sdkSchema } from '../../src/model/sdk-schema'
import type { Tool } from '../../src/contract/tool'

describe('hot-path caches (issue 26)', () => {
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('the system prompt is made again when memory is written, and only then', async () => {
    h = await Harness.start()
    const turn = async (...steps: ReturnType<typeof call>[][]) => {
      const before = h!.server.requests.length
      h!.server.script(...steps.map(calls => ({ toolCalls: calls })), { toolCalls: [call('finish', {})] })
      // a group: a private chat makes no pinned file (SPEC §22)
      await h!.client('bob', 'room').receive(`<at id="514"/> turn #${before}`)
      await h!.server.waitForRequests(before + steps.length + 1)
      await h!.settled()
      return h!.server.requests.slice(before).map(r => r.body.messages[0].content as string)
    }
    const [first] = await turn()
    const [again, afterWrite] = await turn([call('write', { url: 'local://memory/core.md', content: 'Bob likes tea.\n' })])
    expect(again).to.equal(first)
    expect(first).to.not.include('Bob likes tea.')
    expect(afterWrite).to.include('Bob likes tea.')
    const [later] = await turn()
    expect(later).to.equal(afterWrite)
  })

  it('SystemPromptCache answers as systemPrompt does, for each of its inputs changing', () => {
    const cache = new SystemPromptCache()
    const base: PromptOptions = {
      persona: 'You are Neko.', mode: 'channel', schemes: ['local', 'artifact'], codemode: false, readDirect: true,
      imageInput: false, visionModel: false, parts: [{ protocol: 'Memory: pinned.', section: '## Memory\none' }],
    }
    const variants: PromptOptions[] = [
      base,
      { ...base, schemes: [...base.schemes] },
      { ...base, parts: [{ protocol: 'Memory: pinned.', section: '## Memory\ntwo' }] },
      { ...base, parts: [{ protocol: 'Memory.', section: '## Memory\ntwo' }] },
      { ...base, schemes: ['local', 'artifact', 'history'] },
      { ...base, toolSources: '- mcp server "files": 12 tools' },
      { ...base, codemode: true, readDirect: false },
      { ...base, persona: 'You are Tama.' },
      base,
    ]
    for (const o of variants) expect(cache.get(o)).to.equal(systemPrompt(o))
  })

  it('a message known valid without zod is valid by the SDK schemas too; the rest go to the schemas', () => {
    const schema = (m: any) => ({ user: userModelMessageSchema, assistant: assistantModelMessageSchema, tool: toolModelMessageSchema } as any)[m.role]
    const result = (output: unknown) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output }] })
    const valid = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [
        { type: 'reasoning', text: 'hm' }, { type: 'text', text: 'hi' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { url: 'x' } },
      ] },
      result({ type: 'json', value: { ok: true, ids: ['1', '2'], n: 3, nested: { a: null, b: [1, 'x', { c: false }] }, gone: undefined } }),
      result({ type: 'text', value: 'plain' }),
      result({ type: 'error-text', value: 'bad' }),
    ]
    for (const m of valid) {
      expect(knownValid(m as any), JSON.stringify(m)).to.equal(true)
      expect(schema(m).safeParse(m).success).to.equal(true)
    }
    // not decided here (some valid, some not): the schemas judge them
    const undecided = [
      { role: 'user', content: 'x', providerOptions: { a: { b: 1 } } },
      { role: 'tool', content: 'not an array' },
      result({ type: 'json', value: { n: NaN } }),
      result({ type: 'json', value: { at: new Date(0) } }),
      result({ type: 'json', value: Infinity }),
      result({ type: 'content', value: [{ type: 'text', text: 'x' }] }),
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 1, toolName: 'read', input: {} }] },
      { role: 'assistant', content: [{ type: 'file', data: 'aGk=', mediaType: 'text/plain' }] },
    ]
    for (const m of undecided) expect(knownValid(m as any), JSON.stringify(m)).to.equal(false)
  })

  it('tool declarations are measured once per schema, and a new schema is measured anew', () => {
    const input = z.object({ url: z.string().describe('the resource URL') })
    const tool = (schema: unknown, description = 'reads'): Tool => ({ description, inputSchema: schema as any, execute: async () => ({}) }) as any
    const json = (s: unknown) => JSON.stringify((sdkSchema(s as any) as any).jsonSchema).length
    const one = declaredChars(new Map([['read', tool(input)]]))
    expect(one).to.equal('read'.length + 'reads'.length + json(input))
    // two tools of one schema (two conversations' read): the same Schema, the same size
    expect(sdkSchema(input as any)).to.equal(sdkSchema(input as any))
    expect(declaredChars(new Map([['read', tool(input, 'reads more')]]))).to.equal(one + ' more'.length)
    const wider = z.object({ url: z.string(), lifetime: z.string().optional() })
    expect(declaredChars(new Map([['read', tool(wider)]]))).to.equal('read'.length + 'reads'.length + json(wider))
    expect(json(wider)).to.not.equal(json(input))
  })
})
