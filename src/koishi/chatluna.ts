// ChatLuna (koishi-plugin-chatluna, an optional service) at the edge (SPEC §11.1): its chat models
// for the bridge (src/model/providers/chatluna.ts), and its model list for the console form. Only
// `createChatModel` and `platform.listAllModels` are called: ChatLuna's config, and so its API
// keys, are never read.
import { Schema, type Context } from 'koishi'
import { CHATLUNA_MODEL_SCHEMA } from '../config/schema'
import type { ModelConfig } from '../config/types'
import { createModel, type ModelHandle } from '../model/provider'
import type { ChatLunaModels } from '../model/providers/chatluna'
import type { ReasoningModes } from '../model/reasoning-mode'
import type { Logger } from '../util/logger'

export type { ModelHandle } from '../model/provider'

/** The part of ChatLunaService (1.3) used here. */
interface ChatLunaService {
  /** a ComputedRef: `.value` is the model now, undefined while its platform is not loaded */
  createChatModel(fullModelName: string): Promise<{ value: unknown }>
  platform?: { listAllModels(type: number): { value: { name: string; platform: string }[] } }
}

/** ChatLuna's ModelType.llm (llm-core/platform/types: all = 0, llm = 1, embeddings = 2) */
const LLM = 1

// Koishi hands out each service as a new proxy per access; cordis keeps the object behind it here
const ORIGINAL = Symbol.for('cordis.original')

function service(ctx: Context): ChatLunaService | undefined {
  const s = (ctx as any).chatluna as ChatLunaService | undefined
  return typeof s?.createChatModel === 'function' ? s : undefined
}

/** The models of `config`, ChatLuna's through the bridge. */
export function createModels(ctx: Context, config: Map<string, ModelConfig>, reasoning: ReasoningModes, logger: Logger): Map<string, ModelHandle> {
  const chatluna = chatLunaModels(ctx)
  return new Map([...config].map(([id, m]) => [id, createModel(m, reasoning, { logger, chatluna })]))
}

/**
 * `.value` is read at every call, so a model ChatLuna dropped (an adapter reloaded, its key
 * removed) is seen at once, and one it loaded later too. The refs are ChatLuna's own reactive
 * ones, asked once per name and service: a reloaded ChatLuna is a new service, asked again.
 */
export function chatLunaModels(ctx: Context): ChatLunaModels {
  let owner: unknown
  let refs = new Map<string, Promise<{ value: unknown } | undefined>>()
  return {
    loaded: () => !!service(ctx),
    async model(name) {
      const luna = service(ctx)
      if (!luna) return undefined
      const key = (luna as any)[ORIGINAL] ?? luna
      if (key !== owner) {
        owner = key
        refs = new Map()
      }
      let ref = refs.get(name)
      if (!ref) {
        const asked = ref = Promise.resolve().then(() => luna.createChatModel(name))
        refs.set(name, asked)
        // a failed lookup is asked again on the next call
        asked.catch(() => { if (refs.get(name) === asked) refs.delete(name) })
      }
      return (await ref)?.value
    },
  }
}

/** ChatLuna's models as 'platform/model', or none while it is not loaded. */
function modelNames(ctx: Context): string[] {
  try {
    const all = service(ctx)?.platform?.listAllModels(LLM)?.value ?? []
    return [...new Set(all.map(m => `${m.platform}/${m.name}`))].sort()
  } catch {
    return []
  }
}

/**
 * `models[].chatluna` in the console form (Schema.dynamic): a choice of ChatLuna's models while it
 * has some, else a text field. ChatLuna announces its list's changes as events.
 */
export function offerChatLunaModels(ctx: Context): void {
  let shown: string | undefined
  const refresh = () => {
    const names = modelNames(ctx)
    const key = names.join('\n')
    if (key === shown) return
    shown = key
    ctx.schema.set(CHATLUNA_MODEL_SCHEMA, names.length
      ? Schema.union([Schema.const('').description('—'), ...names.map(n => Schema.const(n).description(n))])
      : Schema.string())
  }
  refresh()
  const on = ctx.on.bind(ctx) as (name: string, fn: (...args: any[]) => void) => () => void
  on('chatluna/model-added', refresh)
  on('chatluna/model-removed', refresh)
  on('internal/service', (name: string) => { if (name === 'chatluna') refresh() })
}
