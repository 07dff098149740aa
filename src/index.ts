// koishi-plugin-kotodama: an LLM mind that lives in the chat (SPEC §1).
import type { Context } from 'koishi'
import zhCN from '../locales/zh-CN.yml'
import enUS from '../locales/en-US.yml'
import { configSchema } from './runtime/config-of-parts'
import type { Config as KotodamaConfig } from './config/types'
import { KotodamaService, OPTIONAL_SERVICES } from './koishi/service'
import { registerCommands } from './koishi/commands'
import { registerConsole } from './koishi/console'
import { offerChatLunaModels } from './koishi/chatluna'

export const name = 'kotodama'
export const reusable = false
export const inject = OPTIONAL_SERVICES

export type Config = KotodamaConfig
export const Config = configSchema.i18n({ 'zh-CN': (zhCN as any)._config, 'en-US': (enUS as any)._config })

export function apply(ctx: Context, config: Config) {
  ctx.i18n.define('zh-CN', zhCN as any)
  ctx.i18n.define('en-US', enUS as any)
  ctx.plugin(KotodamaService, config)
  offerChatLunaModels(ctx)
  ctx.inject(['kotodama'], ctx => registerCommands(ctx))
  // the console is optional: the page appears while it is loaded
  ctx.inject(['kotodama', 'console'], ctx => registerConsole(ctx))
}

export { KotodamaService } from './koishi/service'
export type { WakeOptions } from './koishi/service'
export type { Tool, ToolCallContext, ExitKit, ToolResultOutput } from './contract/tool'
export type { ToolHost, RuntimeView } from './tools/types'
export type { SchemeHandler, ReadResult, ReadOptions, MediaBytes, ResourceMeta } from './resources/types'
// The file-scheme layer, for extensions that serve file-like resources (SPEC §9).
export { parseFileUrl, formatFileUrl, withOffset, composeSelectors, type FileUrl } from './resources/file-url'
export { readFileTarget, type FileTarget } from './resources/text/file-read'
export { TextCache, type TextLimits } from './resources/text'
export { resolveInRoot } from './resources/file-root'
export { ResourceError, type ResourceErrorCode } from './resources/errors'
export type { WakeEngine, WakeEngineContext, WakeEngineFactory } from './attention/wake-engine'
export type { Fact } from './history/entries'
export type { Runtime } from './runtime/runtime'
export type { SchemeFactory, ToolFactory } from './tools/types'
export * from './config/types'
