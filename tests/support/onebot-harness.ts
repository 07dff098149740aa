// Koishi + the real koishi-plugin-adapter-onebot (forward WebSocket, `protocol: 'ws'`) connected to a fake
// NapCat (fakes/onebot) + the plugin + a fake OpenAI-compatible server, all on 127.0.0.1. Mirrors harness.ts
// (config, typing, logs, settled, stop) with a real platform in place of plugin-mock. Follows the adapter's
// source (koishijs/koishi-plugin-adapter-onebot 6.9.4, src/ws.ts and src/bot/index.ts: the bot is online once
// `get_login_info` has answered on a connection; its id is `onebot:<selfId>`).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { App, Bot, Universal } from 'koishi'
import { HTTP as http } from '@koishijs/plugin-http'
import onebot from 'koishi-plugin-adapter-onebot'
import * as kotodama from '../../src'
import { AppHarness } from './app-waits'
import { FakeOpenAI } from './fake-openai'
import { FakeNapCat, FakeNapCatOptions } from './fakes/onebot'
import { FAST_TYPING, NO_DEBOUNCE } from './harness'

export { FAST_TYPING, NO_DEBOUNCE, NO_TYPING, typingBetween, call } from './harness'


export interface OneBotHarnessOptions {
  /** the bot's QQ number; default 10001 */
  selfId?: number
  /** the access token both sides share (the adapter sends `Authorization: Bearer <token>`) */
  token?: string
  /** the fake NapCat's other options (heartbeat, history cap, nickname) */
  napcat?: Omit<FakeNapCatOptions, 'selfId' | 'token'>
  /** the adapter's `responseTimeout` in ms (its default is a minute); default 3000 so a hanging action fails fast */
  responseTimeout?: number
  profiles?: any[]
  /** fields of the default profile, which claims every channel of `onebot:<selfId>` */
  profile?: any
  /** fields of the default model entry (which talks to the harness's fake OpenAI server) */
  model?: any
  /** more model entries on the same fake server (`id` and `model` given; speech, vision, embeddings) */
  models?: any[]
  /** the plugin's data folder (the caller creates and removes it); default a fresh temporary one */
  dataDir?: string
  /**
   * more of the adapter's config. The harness sets `retryTimes: 0` (a dropped socket leaves the bot offline at once,
   * as 6.9.4 does in the end anyway); `{ retryTimes: 3 }` lets the adapter try its own (broken) reconnect.
   */
  adapter?: Record<string, unknown>
  /** more plugin config (codemode, mcp, storage ...) */
  config?: Record<string, unknown>
  /** called before the plugin is installed: services it uses (a fake vits) are there when it starts */
  before?: (app: App) => void
}

export class OneBotHarness extends AppHarness {
  private ownsDataDir = true
  fork: ReturnType<App['plugin']>
  adapter: ReturnType<App['plugin']>
  private constructor(
    readonly app: App, readonly napcat: FakeNapCat, readonly server: FakeOpenAI, readonly dataDir: string,
    readonly config: any, readonly adapterConfig: any,
  ) {
    super()
  }

  /** `onebot:<selfId>` */
  get botId(): string {
    return `onebot:${this.napcat.selfId}`
  }

  get bot(): Bot {
    return this.app.bots.find(b => b.platform === 'onebot' && b.selfId === String(this.napcat.selfId))
  }

  static async start(o: OneBotHarnessOptions = {}): Promise<OneBotHarness> {
    const selfId = o.selfId ?? 10001
    const napcat = await FakeNapCat.start({ ...o.napcat, selfId, token: o.token })
    const server = await FakeOpenAI.start()
    const dataDir = o.dataDir ?? await mkdtemp(join(tmpdir(), 'kotodama-onebot-'))
    const config = {
      dataDir,
      models: [{ id: 'main', baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 10000, ...o.model },
        ...(o.models ?? []).map(m => ({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0, timeoutMs: 10000, ...m }))],
      ...o.config,
      profiles: o.profiles ?? [{
        id: 'neko', persona: 'You are Neko.', model: 'main',
        claims: [{ bot: `onebot:${selfId}`, channels: ['*'] }], typing: FAST_TYPING, timing: NO_DEBOUNCE, ...o.profile,
      }],
    }
    const adapterConfig: any = {
      selfId: String(selfId), protocol: 'ws', endpoint: napcat.url, responseTimeout: o.responseTimeout ?? 3000,
      retryTimes: 0, retryInterval: 200, retryLazy: 200, ...(o.token ? { token: o.token } : {}), ...o.adapter,
    }
    const app = new App({ i18n: { locales: ['en-US', 'zh-CN'] } } as any)
    const h = new OneBotHarness(app, napcat, server, dataDir, config, adapterConfig)
    h.ownsDataDir = !o.dataDir
    h.captureLogs()
    app.plugin(http)
    h.adapter = app.plugin(onebot, adapterConfig)
    await app.start()
    await h.online()
    o.before?.(app)
    h.fork = app.plugin(kotodama, config)
    await h.idle()
    return h
  }


  /** Resolves when the adapter's bot is online (it has connected and `get_login_info` answered). */
  online(timeoutMs = 5000): Promise<void> {
    return this.until(() => this.bot?.status === Universal.Status.ONLINE, 'the OneBot bot to be online', timeoutMs)
  }

  /**
   * Reloads the adapter: the way back after the socket dropped, since 6.9.4 does not reconnect by itself
   * in `ws` mode (its close handler marks the bot offline after the retry was scheduled; its PR #81).
   */
  async reloadAdapter(): Promise<void> {
    this.adapter.dispose()
    await this.idle(50)
    this.adapter = this.app.plugin(onebot, this.adapterConfig)
    await this.online()
  }

  async stop(): Promise<void> {
    this.fork?.dispose()
    await this.idle(20)
    // disposed before the app: a bot disposed with the app finds no `bots` service (as plugin-mock, koishijs/koishi#1525)
    this.adapter?.dispose()
    await this.app.stop()
    await this.napcat.close()
    await this.server.close()
    this.untarget()
    // a runtime still stopping may write its usage file while the folder goes (ENOTEMPTY): retried
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  }
}
