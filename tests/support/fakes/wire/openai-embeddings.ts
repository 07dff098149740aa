// The OpenAI embeddings wire for the scripted server. Follows the OpenAI API reference:
// "Embeddings" (create: `input` a string or an array of them, `encoding_format` float or base64;
// the list of embedding objects with `index`, and `usage`) and "Error codes" for errors.
import { Delivery, RecordedRequest, Wire } from '../scripted-server'
import { openAIError } from './openai-chat'

export interface EmbeddingsReply extends Delivery {
  /** one vector per input, in order */
  vectors?: number[][]
  /** the vector of each input text (used when `vectors` is not given) */
  vectorOf?: (text: string) => number[]
  error?: string
  errorType?: string
}

/** The texts a request asks to embed. */
export function inputsOf(req: RecordedRequest): string[] {
  const input = req.body?.input
  return Array.isArray(input) ? input : input === undefined ? [] : [input]
}

export function openAIEmbeddings(name = 'fake-openai'): Wire<EmbeddingsReply> {
  return {
    error: (status, message, reply) => openAIError(status, message, reply?.errorType),
    render(reply, req) {
      if (reply.status && reply.status >= 400) return openAIError(reply.status, reply.error ?? `${name}: scripted status ${reply.status}`, reply.errorType)
      const input = inputsOf(req)
      const vectors = reply.vectors ?? input.map((t) => reply.vectorOf?.(t) ?? [0])
      const base64 = req.body?.encoding_format === 'base64'
      // base64 is the little-endian float32 bytes of the vector
      const encode = (v: number[]) => base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v
      return {
        status: 200,
        json: {
          object: 'list',
          model: req.body?.model ?? 'fake-embed',
          data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        },
      }
    },
  }
}
