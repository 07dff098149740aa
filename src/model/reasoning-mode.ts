// Whether a model's kept reasoning goes back to its server (SPEC §11, `models[].reasoning`).
// DeepSeek's thinking mode answers HTTP 400 "The reasoning_content in the thinking mode must be
// passed back to the API." unless every assistant message with tool calls carries its
// reasoning_content in all later requests (their guide, "thinking_mode#tool-calls"). `auto` drops
// reasoning until a server says so, then returns it; what was learned is kept in
// `<dataDir>/models.json`, for that endpoint and model name only, so a restart does not pay the
// 400 again and a changed endpoint learns anew.
import { readFileSync } from 'node:fs'
import { APICallError, RetryError } from 'ai'
import type { ModelConfig } from '../config/types'
import { atomicWrite } from '../util/atomic-write'
import type { Logger } from '../util/logger'

type Entry = Pick<ModelConfig, 'id' | 'baseURL' | 'model' | 'reasoning'>

interface Learned {
  baseURL: string
  model: string
  reasoning: 'return'
  learnedAt: string
}

const NAMES_THE_FIELD = /reasoning_content/i

/** A 400 that asks for reasoning_content (directly, or as the last error of the retries). */
export function asksForReasoning(e: unknown): boolean {
  const err = RetryError.isInstance(e) ? e.lastError : e
  if (!APICallError.isInstance(err) || err.statusCode !== 400) return false
  return NAMES_THE_FIELD.test(err.message) || NAMES_THE_FIELD.test(err.responseBody ?? '')
}

export class ReasoningModes {
  private learned = new Map<string, Learned>()
  private writing = Promise.resolve()

  /** `file`: where learned modes are kept; without one they last until the plugin stops. */
  constructor(private file: string | undefined, private logger: Logger) {
    if (!file) return
    try {
      const data = JSON.parse(readFileSync(file, 'utf8'))
      for (const [id, v] of Object.entries<any>(data?.models ?? {})) {
        if (v?.reasoning === 'return' && typeof v.baseURL === 'string' && typeof v.model === 'string') this.learned.set(id, v)
      }
    } catch (e: any) {
      if (e?.code !== 'ENOENT') logger.warn('%s could not be read (learned reasoning modes start over): %s', file, e?.message ?? e)
    }
  }

  private learnedFor(c: Entry): Learned | undefined {
    const l = this.learned.get(c.id)
    return l && l.baseURL === c.baseURL && l.model === c.model ? l : undefined
  }

  /** True when this model's requests carry each step's reasoning back. */
  returns(c: Entry): boolean {
    const mode = c.reasoning ?? 'auto'
    if (mode !== 'auto') return mode === 'return'
    return !!this.learnedFor(c)
  }

  /**
   * After a failed request: true when the server asked for reasoning and the model switched to
   * returning it (the caller retries the same step at once).
   */
  learn(c: Entry, error: unknown): boolean {
    if ((c.reasoning ?? 'auto') !== 'auto' || this.learnedFor(c) || !asksForReasoning(error)) return false
    this.learned.set(c.id, { baseURL: c.baseURL, model: c.model, reasoning: 'return', learnedAt: new Date().toISOString() })
    this.logger.info('model "%s" asks for its reasoning back (reasoning_content): it is returned from now on (models[].reasoning: auto)', c.id)
    this.save()
    return true
  }

  private save(): void {
    const file = this.file
    if (!file) return
    const data = JSON.stringify({ models: Object.fromEntries(this.learned) }, null, 2) + '\n'
    this.writing = this.writing.then(() => atomicWrite(file, data)).catch(e => this.logger.warn('%s could not be written: %s', file, e?.message ?? e))
  }

  /** Resolves when what was learned is on disk. */
  idle(): Promise<void> {
    return this.writing
  }
}
