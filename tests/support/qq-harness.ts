// Koishi + the real @satorijs/adapter-qq (4.11) connected to FakeQQ (fakes/qq/fake-qq.ts, QQ's
// official bot API as its documents describe it) + the real plugin + a FakeOpenAI model, all on
// 127.0.0.1. The adapter is pointed at the fake by its own options (`endpoint` for the OpenAPI;
// the gateway URL comes from the fake's `/gateway`) and, for the token exchange it hard-codes
// (`https://bots.qq.com/app/getAppAccessToken`, src/bot/index.ts), by Koishi's HTTP hook
// `http/fetch-init`, which rewrites that one URL to the fake (@cordisjs/plugin-http 0.6: the
// hook receives the URL object before fetch).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mock as nodeMock } from 'node:test'
import { App, Bot, Universal } from 'koishi'
import { HTTP as http } from '@koishijs/plugin-http'
import * as kotodama from '../../src'
import { AppHarness } from './app-waits'
import { FakeOpenAI } from './fake-openai'
import { FakeQQ, FakeQQOptions, Intents } from './fakes/qq/fake-qq'
import { FAST_TYPING, NO_DEBOUNCE } from './harness'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const QQBot = require('@satorijs/adapter-qq').default

const TOKEN_HOST = 'https://bots.qq.com'

export { FAST_TYPING, NO_DEBOUNCE }

export interface QQHarnessOptions {
  /** options of the fake (proactive quota, clock, credentials) */
  qq?: FakeQQOptions
  /** fields of the default profile */
  profile?: any
  profiles?: any[]
  /** fields of the default model entry */
  model?: any
  /** more model entries on the same fake server (`id` and `model` given; speech, vision, embeddings) */
  models?: any[]
  /** adapter config fields (e.g. `retryWhen`, `intents`) */
  adapter?: any
  /** the plugin's `trust` (SPEC §22): `{ owners: ['qq:U1'] }` lets U1 run kotodama's commands without a database */
  trust?: any
}

/** A call kotodama (or anything else) made to the QQ bot's sendMessage, passed through to the adapter. */
export interface QQSendCall {
  channel: string
  content: string
  guildId?: string
  /** carried `options.session` (a passive reply is possible only then, or with a `<passive>` element) */
  session: boolean
  /** what the adapter returned (message ids) or threw */
  result?: string[]
  error?: string
}

export class QQHarness extends AppHarness {
  /** the QQ bot's sendMessage calls, in order */
  readonly sends: QQSendCall[] = []
  fork: ReturnType<App['plugin']> | undefined
  /** the adapter's plugin scope (disposed before the app stops: a bot disposed with the app throws, as plugin-mock's does) */
  adapter: ReturnType<App['plugin']> | undefined
  private constructor(
    readonly app: App, readonly qq: FakeQQ, readonly server: FakeOpenAI, readonly dataDir: string, readonly config: any,
  ) {
    super()
  }

  static async start(o: QQHarnessOptions = {}): Promise<QQHarness> {
    const qq = await FakeQQ.start(o.qq)
    const server = await FakeOpenAI.start()
    const dataDir = await mkdtemp(join(tmpdir(), 'kotodama-qq-'))
    const botId = `qq:${qq.botUser.id}`
    const config = {
      dataDir,
      models: [{ id: 'main', baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 10000, ...o.model },
        ...(o.models ?? []).map(m => ({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0, timeoutMs: 10000, ...m }))],
      ...(o.trust ? { trust: o.trust } : {}),
      profiles: o.profiles ?? [{
        id: 'neko', persona: 'You are Neko.', model: 'main',
        claims: [{ bot: botId, channels: ['*'] }], typing: FAST_TYPING, timing: NO_DEBOUNCE, ...o.profile,
      }],
    }
    const app = new App({ i18n: { locales: ['en-US', 'zh-CN'] } } as any)
    const h = new QQHarness(app, qq, server, dataDir, config)
    h.captureLogs()
    app.plugin(http)
    // the token URL is a constant in the adapter: send that one request to the fake
    app.on('http/fetch-init' as any, (url: URL) => {
      if (url.origin === TOKEN_HOST) url.href = qq.origin + url.pathname + url.search
    })
    h.adapter = app.plugin(QQBot, {
      id: qq.appId, secret: qq.secret, type: 'private', endpoint: qq.origin,
      intents: Intents.GROUP_AND_C2C_EVENT, protocol: 'websocket', retryTimes: 0, ...o.adapter,
    })
    await app.start()
    await h.until(() => h.bot?.status === Universal.Status.ONLINE, 'the QQ bot to come online')
    h.recordSends(h.bot!)
    h.fork = app.plugin(kotodama, config)
    await h.idle()
    return h
  }

  /** The QQ bot (`qq:<id>`), not its hidden guild twin. */
  get bot(): Bot | undefined {
    return this.app.bots.find(b => b.platform === 'qq')
  }


  private recordSends(bot: Bot) {
    const original = bot.sendMessage
    const sends = this.sends
    nodeMock.method(bot, 'sendMessage', async function (this: Bot, channel: string, content: any, guildId?: string, options?: any) {
      const call: QQSendCall = { channel, content: typeof content === 'string' ? content : [content].flat().join(''), guildId, session: !!options?.session }
      sends.push(call)
      try {
        call.result = await original.call(this, channel, content, guildId, options)
        return call.result
      } catch (e: any) {
        call.error = e?.errors ? e.errors.map((x: any) => x?.message ?? String(x)).join('; ') : e?.message ?? String(e)
        throw e
      }
    })
  }

  async stop(): Promise<void> {
    nodeMock.restoreAll()
    this.fork?.dispose()
    await this.idle(20)
    this.adapter?.dispose()
    await this.idle(20)
    await this.app.stop()
    await this.qq.close()
    await this.server.close()
    this.untarget()
    await rm(this.dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  }
}
