// The OpenAI Responses API wire (POST /v1/responses) for the scripted server. Follows the OpenAI API
// reference "Responses" (create: `input` items message / function_call / function_call_output /
// reasoning with encrypted_content / item_reference, `store`, `include: ['reasoning.encrypted_content']`,
// `previous_response_id`; the response object's output items and usage {input_tokens,
// input_tokens_details.cached_tokens, output_tokens, output_tokens_details.reasoning_tokens}),
// "Streaming events" (response.created, response.output_item.added, response.output_text.delta,
// response.reasoning_summary_text.delta, response.function_call_arguments.delta,
// response.output_item.done, response.completed), the guide "Reasoning models" (keeping reasoning
// items in context; stateless use with encrypted reasoning) and "Error codes".
//
// Rules it enforces before guards and script, in the API's own words (README.md, "Responses"):
// - nothing a `store: false` response returned is kept: a reference to it (an item_reference, or an
//   item with an id but no content) is 404 "Item with id '…' not found. Items are not persisted …";
// - reasoning items must accompany their function calls when store is false: a function_call the fake
//   issued after an encrypted reasoning item needs that item (its encrypted_content exact) earlier in
//   the input, else 400; an encrypted_content the fake did not issue is 400 invalid_encrypted_content;
// - a function_call_output must answer a function_call of the input (or of previous_response_id).
import { Delivery, Payload, RecordedRequest, sseEvent, Wire } from '../scripted-server'
import { FakeToolCall, halves } from './openai-chat'

export interface ResponsesUsage {
  input_tokens?: number
  cached_tokens?: number
  output_tokens?: number
  reasoning_tokens?: number
}

export interface ResponsesReply extends Delivery {
  text?: string
  /** a reasoning item first, with this summary ('' gives an empty summary); encrypted when the request includes it */
  reasoning?: string
  toolCalls?: FakeToolCall[]
  /** `false` leaves usage out; fields set over the estimates */
  usage?: false | ResponsesUsage
  /** an incomplete response: incomplete_details.reason */
  incomplete?: 'max_output_tokens' | 'content_filter'
  error?: string
  errorType?: string
  errorCode?: string
}

/** A reasoning item the fake issued, and the calls that followed it in the same response. */
export interface IssuedReasoning {
  id: string
  encrypted_content?: string
  summary: string
  callIds: string[]
  store: boolean
}

export interface ResponsesWire extends Wire<ResponsesReply> {
  readonly reasoning: IssuedReasoning[]
}

export function responsesError(status: number, message: string, o: { type?: string; code?: string | null; param?: string | null } = {}): Payload {
  return { status, json: { error: { message, type: o.type ?? 'invalid_request_error', param: o.param ?? null, code: o.code ?? null } } }
}

export function itemNotFound(id: string): string {
  return `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. `
    + 'Try again with `store` set to true, or remove this item from your input.'
}

export function reasoningRequired(functionCall: string, reasoning: string): string {
  return `Item '${functionCall}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning}'.`
}

export function unverifiedEncryptedContent(id: string): string {
  return `The encrypted content for item ${id} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`
}

export function noToolCall(callId: string): string {
  return `No tool call found for function call output with call_id ${callId}.`
}

/** The request's input as items (a string input is one user message). */
export function inputOf(req: RecordedRequest): any[] {
  const input = req.body?.input
  return typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : []
}

export function itemsOf(req: RecordedRequest, type: string): any[] {
  return inputOf(req).filter((i) => (i.type ?? (i.role ? 'message' : undefined)) === type)
}

/** The id an item only points at: an item_reference, or an item with an id and none of its content. */
function referenceOf(item: any): string | undefined {
  if (item?.type === 'item_reference') return item.id
  if (typeof item?.id !== 'string') return undefined
  // a reasoning item without its encrypted content can only be looked up (the classic store: false 404)
  if (item.type === 'reasoning') return item.encrypted_content == null ? item.id : undefined
  if (item.type === 'function_call') return item.name == null && item.arguments == null ? item.id : undefined
  if (item.type === 'message' || item.role) return item.content == null ? item.id : undefined
  return undefined
}

// rough but deterministic: a quarter of the characters
const estimate = (text: string) => Math.ceil(text.length / 4)

export function openAIResponses(name = 'fake-openai'): ResponsesWire {
  const reasoning: IssuedReasoning[] = []
  const stored = new Map<string, any>()         // items of responses made with store !== false
  const unstored = new Set<string>()            // ids of items of store: false responses
  const responses = new Map<string, { store: boolean; callIds: string[] }>()
  const encrypted = new Map<string, string>()   // encrypted_content → reasoning id
  let n = { resp: 0, rs: 0, msg: 0, fc: 0, call: 0 }

  function refusal(req: RecordedRequest): string | { status: number; message: string } | undefined {
    const body = req.body ?? {}
    if (typeof body.model !== 'string') return "Missing required parameter: 'model'."
    const input = inputOf(req)
    const previous = body.previous_response_id
    if (previous !== undefined && !responses.get(previous)?.store) return { status: 404, message: `Previous response with id '${previous}' not found.` }
    for (const item of input) {
      const ref = referenceOf(item)
      if (ref === undefined || stored.has(ref)) continue
      return { status: 404, message: unstored.has(ref) || body.store === false ? itemNotFound(ref) : `Item with id '${ref}' not found.` }
    }
    const calls = new Set<string>(previous ? responses.get(previous)!.callIds : [])
    for (const item of input) {
      const it = referenceOf(item) ? stored.get(referenceOf(item)!) : item
      if (it?.type === 'function_call') calls.add(it.call_id)
      // encrypted content is exact: one the fake did not issue, or issued for another item, cannot be decrypted
      const owner = it?.type === 'reasoning' && it.encrypted_content != null ? encrypted.get(it.encrypted_content) ?? '' : undefined
      if (owner !== undefined && (owner === '' || (it.id && owner !== it.id))) return unverifiedEncryptedContent(it.id ?? 'reasoning')
    }
    for (const item of input) if (item.type === 'function_call_output' && !calls.has(item.call_id)) return noToolCall(item.call_id)
    if (body.store !== false) return undefined
    for (const [k, item] of input.entries()) {
      if (item.type !== 'function_call') continue
      const needed = reasoning.find((r) => r.encrypted_content && r.callIds.includes(item.call_id))
      if (!needed) continue
      const accompanies = (i: any) => i.type === 'reasoning'
        && (i.encrypted_content === needed.encrypted_content || (referenceOf(i) === needed.id && stored.has(needed.id)))
      const before = input.slice(0, k).some(accompanies)
      if (!before) return reasoningRequired(item.id ?? item.call_id, needed.id)
    }
    return undefined
  }

  return {
    reasoning,
    // a refusal from check() arrives as a message alone; the encrypted-content one has its own code
    error: (status, message, reply) => responsesError(status, message, {
      type: reply?.errorType, code: reply?.errorCode ?? (message.startsWith('The encrypted content ') ? 'invalid_encrypted_content' : null),
    }),
    reset() {
      reasoning.length = 0
      stored.clear()
      unstored.clear()
      responses.clear()
      encrypted.clear()
      n = { resp: 0, rs: 0, msg: 0, fc: 0, call: 0 }
    },
    check: refusal,
    render(reply, req) {
      if (reply.status && reply.status >= 400) {
        return responsesError(reply.status, reply.error ?? `${name}: scripted status ${reply.status}`, { type: reply.errorType, code: reply.errorCode })
      }
      const body = req.body ?? {}
      const store = body.store !== false
      const withEncrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content')
      const output: any[] = []
      let issued: IssuedReasoning | undefined
      if (reply.reasoning !== undefined) {
        const id = `rs_fake_${++n.rs}`
        const enc = withEncrypted ? `gAAAAB${Buffer.from(`fake-encrypted-reasoning:${id}`).toString('base64')}` : undefined
        issued = { id, encrypted_content: enc, summary: reply.reasoning, callIds: [], store }
        reasoning.push(issued)
        if (enc) encrypted.set(enc, id)
        const summary = reply.reasoning ? [{ type: 'summary_text', text: reply.reasoning }] : []
        output.push({ type: 'reasoning', id, summary, ...(enc ? { encrypted_content: enc } : {}) })
      }
      if (reply.text) {
        const content = [{ type: 'output_text', text: reply.text, annotations: [] as unknown[], logprobs: [] as unknown[] }]
        output.push({ type: 'message', id: `msg_fake_${++n.msg}`, status: 'completed', role: 'assistant', content })
      }
      for (const tc of reply.toolCalls ?? []) {
        const call_id = tc.id ?? `call_fake_${++n.call}`
        issued?.callIds.push(call_id)
        const args = typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments ?? {})
        output.push({ type: 'function_call', id: `fc_fake_${++n.fc}`, call_id, name: tc.name, arguments: args, status: 'completed' })
      }
      const id = `resp_fake_${++n.resp}`
      for (const item of output) store ? stored.set(item.id, item) : unstored.add(item.id)
      responses.set(id, { store, callIds: output.filter((i) => i.type === 'function_call').map((i) => i.call_id) })

      const o = reply.usage === false ? undefined : reply.usage ?? {}
      const input_tokens = o?.input_tokens ?? estimate(JSON.stringify([body.instructions ?? null, body.tools ?? null, body.input ?? null]))
      const reasoning_tokens = o?.reasoning_tokens ?? estimate(reply.reasoning ?? '')
      const output_tokens = o?.output_tokens ?? reasoning_tokens + estimate((reply.text ?? '') + output.map((i) => i.arguments ?? '').join(''))
      const usage = o && {
        input_tokens, input_tokens_details: { cached_tokens: o.cached_tokens ?? 0 },
        output_tokens, output_tokens_details: { reasoning_tokens }, total_tokens: input_tokens + output_tokens,
      }
      const response = {
        id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: reply.incomplete ? 'incomplete' : 'completed',
        model: typeof body.model === 'string' ? body.model : 'fake-model', output, store, error: null as unknown,
        incomplete_details: reply.incomplete ? { reason: reply.incomplete } : null, previous_response_id: body.previous_response_id ?? null,
        parallel_tool_calls: body.parallel_tool_calls ?? true, tool_choice: body.tool_choice ?? 'auto', tools: body.tools ?? [], usage: usage ?? null,
      }
      if (body.stream === true) return { status: 200, chunks: streamEvents(response, !!reply.incomplete) }
      return { status: 200, json: response }
    },
  }
}

/** The response as server-sent events, each named by its type and numbered. */
function streamEvents(response: any, incomplete: boolean): string[] {
  let sequence_number = 0
  const events: string[] = []
  const send = (type: string, data: object) => events.push(sseEvent({ type, sequence_number: sequence_number++, ...data }, type))
  const pending = { ...response, status: 'in_progress', output: [], usage: null }
  send('response.created', { response: pending })
  send('response.in_progress', { response: pending })
  response.output.forEach((item: any, output_index: number) => {
    const at = { item_id: item.id, output_index }
    if (item.type === 'reasoning') {
      send('response.output_item.added', { output_index, item: { ...item, summary: [] } })
      const text = item.summary[0]?.text
      if (text !== undefined) {
        const part = { ...at, summary_index: 0 }
        send('response.reasoning_summary_part.added', { ...part, part: { type: 'summary_text', text: '' } })
        for (const delta of halves(text)) send('response.reasoning_summary_text.delta', { ...part, delta })
        send('response.reasoning_summary_text.done', { ...part, text })
        send('response.reasoning_summary_part.done', { ...part, part: { type: 'summary_text', text } })
      }
    } else if (item.type === 'message') {
      const text = item.content[0].text
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } })
      send('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
      for (const delta of halves(text)) send('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] })
      send('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] })
      send('response.content_part.done', { ...at, content_index: 0, part: item.content[0] })
    } else {
      send('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } })
      for (const delta of halves(item.arguments)) send('response.function_call_arguments.delta', { ...at, delta })
      send('response.function_call_arguments.done', { ...at, arguments: item.arguments })
    }
    send('response.output_item.done', { output_index, item })
  })
  send(incomplete ? 'response.incomplete' : 'response.completed', { response })
  return events
}

// ---- helpers for assertions on request bodies ----

/** The reasoning items sent back, as { id, encrypted_content }. */
export function reasoningInputOf(req: RecordedRequest): { id?: string; encrypted_content?: string }[] {
  return itemsOf(req, 'reasoning').map((i) => ({ id: i.id, encrypted_content: i.encrypted_content }))
}

export function functionCallOutputsOf(req: RecordedRequest): { call_id: string; output: unknown }[] {
  return itemsOf(req, 'function_call_output').map((i) => ({ call_id: i.call_id, output: i.output }))
}
