// Koishi + plugin-mock + the real plugin + a fake OpenAI-compatible server on 127.0.0.1.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mock as nodeMock } from 'node:test'
import { App, Bot, h as hh } from 'koishi'
import mock from '@koishijs/plugin-mock'
import { HTTP as http } from '@koishijs/plugin-http'
import * as kotodama from '../../src'
import { homesFree } from '../../src/runtime/home-lock'
import { AppHarness } from './app-waits'
import { FakeOpenAI } from './fake-openai'


export interface Sent {
  bot: string
  channel: string
  content: string
  at: number
  /** set (true) when the send carried a session (`options.session`); absent otherwise */
  session?: true
  /** the message it replies to: a `<quote id>` in the content, else the carried session's message */
  replyTo?: string
}

/** Any send, Koishi's own replies included. */
export interface AnySent extends Sent {
  /** made by `session.send` (a command's answer, a middleware's return value), not by `bot.sendMessage` */
  reply: boolean
}

// marks the options of a bot.sendMessage made by session.send
const VIA_SESSION_SEND = Symbol('via session.send')

export interface HarnessOptions {
  profiles?: any[]
  profile?: any
  /** fields of the default model entry (which talks to the harness's fake server) */
  model?: any
  models?: any[]
  /** model entries added after the default one (e.g. a judge on a server of the test's own) */
  extraModels?: any[]
  codemode?: any
  /** extra bots beside mock:514 */
  bots?: string[]
  /** load Koishi's http plugin (ctx.http), as a typical instance does; default true */
  http?: boolean
  /** the plugin's data folder (the caller creates and removes it); default a fresh temporary one */
  dataDir?: string
  /** make the n-th outbound send (0-based) fail with this message */
  failSend?: { at: number; message: string }
  /** the plugin's `mcp` block (SPEC §14) */
  mcp?: any
  /** the plugin's `trust` (SPEC §22): `{ owners: ['mock:bob'] }` lets bob run kotodama's commands without a database */
  trust?: any
  /** the plugin's `budgets` (SPEC §22): `{ timezone: 'Asia/Shanghai' }` sets the zone of kotodama's day */
  budgets?: any
  /** the plugin's `storage` (issue 15) */
  storage?: 'files' | 'database'
  /** a Koishi database plugin loaded before the plugin: `{ plugin, config }` */
  database?: { plugin: any; config: any }
  /** the selfId of the default mock bot; default 514 */
  selfId?: string
  /** called before the plugin is installed: services it uses (a fake chatluna) are there when it starts */
  before?: (app: App) => void
}

/** Typing whose pause before each message is its length in ms, held between `minMs` and `maxMs`, without jitter. */
export function typingBetween(minMs: number, maxMs = minMs) {
  return { baseDelay: 0, charPerSecond: 1000, minDelay: minMs, maxDelay: maxMs, jitter: 0 }
}
export const FAST_TYPING = typingBetween(1, 5)
/** Messages go out without a pause. */
export const NO_TYPING = typingBetween(0)
/** No burst wait: a mention starts its turn at once (the tests of SPEC §15 set their own timing). */
export const NO_DEBOUNCE = { debounceMs: 0, debounceMaxMs: 0 }

export class Harness extends AppHarness {
  /** every send made with bot.sendMessage (kotodama's), with or without a session; not Koishi's replies */
  readonly sent: Sent[] = []
  /** every send, Koishi's replies through session.send included (those are also read with client.receive) */
  readonly allSent: AnySent[] = []
  private sendCount = 0
  /** the default mock bot's selfId */
  selfId = '514'
  private ownsDataDir = true
  private mocks: ReturnType<App['plugin']>[] = []
  fork: ReturnType<App['plugin']>

  private constructor(
    readonly app: App, readonly server: FakeOpenAI, readonly dataDir: string, readonly config: any, private failSend?: HarnessOptions['failSend'],
  ) {
    super()
  }

  static async start(o: HarnessOptions = {}): Promise<Harness> {
    const server = await FakeOpenAI.start()
    const dataDir = o.dataDir ?? await mkdtemp(join(tmpdir(), 'kotodama-test-'))
    const config = {
      dataDir,
      models: o.models ?? [
        { id: 'main', baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 10000, ...o.model },
        ...o.extraModels ?? [],
      ],
      ...(o.codemode ? { codemode: o.codemode } : {}),
      ...(o.mcp ? { mcp: o.mcp } : {}),
      ...(o.storage ? { storage: o.storage } : {}),
      ...(o.trust ? { trust: o.trust } : {}),
      ...(o.budgets ? { budgets: o.budgets } : {}),
      profiles: o.profiles ?? [{
        id: 'neko', persona: 'You are Neko.', model: 'main',
        claims: [{ bot: '*', channels: ['*'] }], typing: FAST_TYPING, timing: NO_DEBOUNCE, ...o.profile,
      }],
    }
    const app = new App({ i18n: { locales: ['en-US', 'zh-CN'] } } as any)
    const h = new Harness(app, server, dataDir, config, o.failSend)
    h.ownsDataDir = !o.dataDir
    h.captureLogs()
    if (o.http !== false) app.plugin(http)
    if (o.database) app.plugin(o.database.plugin, o.database.config)
    h.selfId = o.selfId ?? '514'
    h.mocks.push(app.plugin(mock, o.selfId ? { selfId: o.selfId } : undefined))
    for (const id of o.bots ?? []) h.mocks.push(app.plugin(mock, { selfId: id }))
    await app.start()
    markSessionSends(app)
    for (const bot of app.bots) h.stubSends(bot)
    o.before?.(app)
    h.fork = app.plugin(kotodama, config)
    await h.idle()
    return h
  }


  /**
   * Every send is recorded in `allSent`; those not made by session.send also in `sent` and count for
   * `failSend`. A send without a session gets fake ids (plugin-mock cannot deliver it); one with a
   * session still reaches the mock client (client.receive) and gets the mock's ids, or fake ones.
   */
  private stubSends(bot: Bot) {
    const original = bot.sendMessage
    const self = this
    nodeMock.method(bot, 'sendMessage', async function (this: Bot, channelId: string, content: any, guildId?: string, options?: any) {
      const reply = !!options?.[VIA_SESSION_SEND]
      const n = reply ? -1 : self.sendCount++
      if (self.failSend && n === self.failSend.at) throw new Error(self.failSend.message)
      const entry: Sent = { bot: `${bot.platform}:${bot.selfId}`, channel: channelId, content: textOf(content), at: Date.now() }
      if (options?.session) entry.session = true
      const replyTo = quoteOf(content) ?? options?.session?.messageId
      if (replyTo) entry.replyTo = String(replyTo)
      self.allSent.push({ ...entry, reply })
      if (!reply) self.sent.push(entry)
      if (!options?.session) return [`sent-${n}`]
      const ids = await original.call(this, channelId, content, guildId, options)
      return reply || ids?.length ? ids : [`sent-${n}`]
    })
  }

  client(user: string, channel?: string, selfId = this.selfId) {
    const bot = this.app.bots.find(b => b.selfId === selfId) as any
    return bot.client(user, channel)
  }

  async stop(): Promise<void> {
    nodeMock.restoreAll()
    this.fork?.dispose()
    // cordis does not wait for the service's async stop: the runtimes finish writing before the folder goes
    await homesFree(this.dataDir)
    await this.idle(20)
    // plugin-mock's dispose throws when stopped with the app (koishijs/koishi#1525)
    this.mocks.forEach(m => m.dispose())
    await this.app.stop()
    await this.server.close()
    this.untarget()
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true })
  }
}

/** Flags the sends session.send makes, so the harness tells Koishi's replies from kotodama's sends (restored by stop()). */
function markSessionSends(app: App) {
  // session.send is Koishi's session mixin (a service object's method), not on satori's Session class
  const proto = Object.getPrototypeOf((app as any).koishi.session)
  if (proto.send === marking) return   // another live harness marks them already
  const send = proto.send
  marking = nodeMock.method(proto, 'send', function (this: any, fragment: any, options: any = {}) {
    return send.call(this, fragment, { ...options, [VIA_SESSION_SEND]: true })
  })
}
let marking: unknown

function textOf(content: any): string {
  return typeof content === 'string' ? content : [content].flat().map(String).join('')
}

function quoteOf(content: any): string | undefined {
  try {
    return hh.select(hh.normalize(content), 'quote')[0]?.attrs?.id
  } catch {
    return undefined
  }
}

/** A tool call for the fake server. */
export const call = (name: string, args: unknown, id?: string) => ({ name, arguments: args, ...(id ? { id } : {}) })
