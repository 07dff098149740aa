// `npm start`: a local Koishi with the console (its sandbox chat, config and log pages and
// kotodama's own page) and this plugin loaded from src/. It runs through @koishijs/loader from a
// koishi.yml it writes into its folder (scripts/demo-loader.ts), because the config page needs the
// loader. `npm start -- --offline` swaps the LLM for scripts/offline-model.ts.
import { join, resolve } from 'node:path'
import { Logger, type Context } from 'koishi'
import type { TypingConfig } from '../src'
import { createLoaderApp, showOwnPackage } from './demo-loader'
import { ensureClientBuilt } from './client-build'
import { startOfflineModel, type OfflineModel } from './offline-model'

export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1'
export const DEFAULT_MODEL = 'qwen3:8b'

export interface DemoOptions {
  /** 5140 by default; must be a real port (the server plugin does not listen on 0) */
  port?: number
  host?: string
  offline?: boolean
  /** the instance's folder: koishi.yml, logs/ and kotodama's homes (kotodama/); default data/demo */
  dataDir?: string
  baseURL?: string
  apiKey?: string
  model?: string
  /** overrides of the profile's typing pauses (tests use short ones) */
  typing?: Partial<TypingConfig>
  /** MCP servers (SPEC §14) for the demo profile (tests) */
  mcpServers?: ({ id: string } & Record<string, unknown>)[]
  /** the model's price per million tokens (SPEC §16), so the console shows costs (tests) */
  price?: { input: number; cachedInput: number; output: number }
  /** the profile's model id (tests name an unknown one to see a profile that does not start) */
  profileModel?: string
  /** the profile's initiative config (SPEC §21; tests of the console's idle-wake line) */
  initiative?: Record<string, unknown>
  /** the profile's stickers config (SPEC §19; tests of the sticker view) */
  stickers?: Record<string, unknown>
  /** the profile's skills config (SPEC §24; tests of the skills view) */
  skills?: Record<string, unknown>
  /** the plugin's budgets (SPEC §22; tests of the budgets view) */
  budgets?: Record<string, unknown>
  /** the profile's upkeep config (SPEC §26; tests of the upkeep view) */
  upkeep?: Record<string, unknown>
}

export interface Demo {
  app: Context
  /** http://host:port, with the port actually bound */
  url: string
  sandboxUrl: string
  model: { baseURL: string; model: string; offline: boolean }
  offlineModel?: OfflineModel
  stop(): Promise<void>
}

const PERSONA = `You are Koto, a friendly and curious companion who lives in this chat.
You talk like a person texting: short, warm messages, one thought each, in the language people use with you.
You are happy to help, you admit when you do not know something, and now and then you ask a question back.`

export async function startDemo(o: DemoOptions = {}): Promise<Demo> {
  const host = o.host ?? '127.0.0.1'
  const port = o.port ?? 5140
  const offlineModel = o.offline ? await startOfflineModel() : undefined
  const model = offlineModel
    ? { baseURL: offlineModel.baseURL, apiKey: '', model: offlineModel.model, offline: true }
    : { baseURL: o.baseURL ?? DEFAULT_BASE_URL, apiKey: o.apiKey ?? '', model: o.model ?? DEFAULT_MODEL, offline: false }

  const dir = resolve(o.dataDir ?? 'data/demo')
  const app = await createLoaderApp(dir, {
    // not needed by the console or sandbox; kotodama uses ctx.http (optional) to fetch http(s) media
    'http:http': {},
    // maxPort: fall forward a few ports when the default one is taken
    'server:server': { host, port, maxPort: port + 9 },
    // devMode off: the prebuilt UI ships in dist/ (kotodama's page: npm run build)
    'console:console': { open: false, devMode: false },
    'config:config': {},
    // absolute: in this process the instance's base folder stays the cwd (`koishi start` changes into it)
    'logger:logger': { root: join(dir, 'logs') },
    'database-memory:memory': {},
    'help:help': {},
    'sandbox:sandbox': {},
    'kotodama:kotodama': {
      dataDir: join(dir, 'kotodama'),
      models: [{
        id: 'main', baseURL: model.baseURL, model: model.model,
        // the key stays in the environment; the loader fills it in
        apiKey: model.apiKey && model.apiKey === process.env.KOTODAMA_API_KEY ? '${{ env.KOTODAMA_API_KEY }}' : model.apiKey,
        // the offline model never fails transiently; fail fast if it is misused
        ...(model.offline ? { maxRetries: 0 } : {}),
        ...(o.price ? { price: o.price } : {}),
      }],
      profiles: [{
        id: 'demo', persona: PERSONA, model: o.profileModel ?? 'main', mode: 'channel',
        // as the README suggests: the sandbox's private chats (@alice) are private:alice
        claims: [{ bot: '*', channels: ['group:*', 'private:*'] }],
        // wake: the defaults (private messages and mentions wake it); typing: the defaults
        ...(o.typing ? { typing: o.typing } : {}),
        ...(o.mcpServers ? { mcp: o.mcpServers.map(s => s.id) } : {}),
        ...(o.stickers ? { stickers: o.stickers } : {}),
        ...(o.initiative ? { initiative: o.initiative } : {}),
        ...(o.skills ? { skills: o.skills } : {}),
        // the console's Upkeep view: "Run now" shows what the mind would keep (SPEC §26)
        upkeep: o.upkeep ?? { enabled: true, review: 'owner' },
      }],
      ...(o.mcpServers ? { mcp: { servers: o.mcpServers } } : {}),
      ...(o.budgets ? { budgets: o.budgets } : {}),
    },
  })
  // Dispose the plugins while the app is alive: on app.stop() the logger goes before the
  // server, whose dispose hook then throws before closing its HTTP listener.
  const stopApp = async () => {
    await dropConsoleClients(app)
    ;(app as any).loader.stopping = true
    const kotodama = (app as any).kotodama
    const record = (app as any).loader?.entry?.scope?.[Symbol.for('koishi.loader.record')] ?? {}
    for (const fork of Object.values<any>(record).reverse()) fork.dispose()
    await app.stop()
    // its last writes (the budget book's flush) are done before the caller removes the folder
    await kotodama?.stopped()
  }
  // The sandbox bot has no adapter, so nothing ever marks it online, and kotodama only sends
  // through online bots (SPEC §4.1 BotUnavailable). Mark it online the way an adapter would.
  app.on('bot-connect', (bot) => {
    if (bot.platform.startsWith('sandbox:')) bot.online()
  })
  try {
    await app.start()
    if (!app.server?.port) throw new Error(`the server did not start on ${host}:${port}`)
    await showOwnPackage(app)
  } catch (e) {
    await stopApp().catch(() => {})
    await offlineModel?.close()
    throw e
  }

  const url = app.server.selfUrl
  let stopped: Promise<void> | undefined
  return {
    app,
    url,
    sandboxUrl: `${url}/sandbox`,
    model: { baseURL: model.baseURL, model: model.model, offline: model.offline },
    offlineModel,
    stop: () => stopped ??= (async () => {
      await stopApp()
      await offlineModel?.close()
    })(),
  }
}

/**
 * Closes the console's WebSockets and waits until they are gone: a connected client makes
 * disposal refresh console data asynchronously, which then fails once the console is gone.
 */
async function dropConsoleClients(app: Context) {
  const clients = app.get('console')?.clients ?? {}
  for (const client of Object.values(clients)) (client.socket as any).terminate?.()
  for (let i = 0; i < 100 && Object.keys(clients).length; i++) await new Promise(r => setTimeout(r, 10))
}

/** Is an OpenAI-compatible endpoint answering? Only a hint for the banner, never fatal. */
async function reachable(baseURL: string, apiKey: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseURL.replace(/\/+$/, '')}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(2000),
    })
    return res.status < 500
  } catch {
    return false
  }
}

async function main() {
  const argv = process.argv.slice(2)
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write([
      'usage: npm start [-- --offline]',
      '  --offline           answer with a small scripted model instead of an LLM',
      'environment:',
      `  PORT                console/sandbox port (default 5140)`,
      `  KOTODAMA_BASE_URL   OpenAI-compatible endpoint (default ${DEFAULT_BASE_URL}, a local Ollama)`,
      '  KOTODAMA_API_KEY    its API key (default none)',
      `  KOTODAMA_MODEL      model name (default ${DEFAULT_MODEL})`,
      '',
    ].join('\n'))
    return
  }
  const env = process.env
  ensureClientBuilt(line => process.stdout.write(line + '\n'))
  // the log page (and this terminal) show the mind's debug lines: turns, tool calls, why a turn ended
  new Logger('kotodama').level = Logger.DEBUG
  const demo = await startDemo({
    port: env.PORT ? Number(env.PORT) : undefined,
    offline: argv.includes('--offline'),
    baseURL: env.KOTODAMA_BASE_URL || undefined,
    apiKey: env.KOTODAMA_API_KEY || undefined,
    model: env.KOTODAMA_MODEL || undefined,
  })

  const lines = [
    '',
    `  kotodama demo is running. Chat with the bot: ${demo.sandboxUrl}`,
    '  (click "添加用户" (add user), then write; in a private chat every message wakes it;',
    '  in the group mode (群聊模式), mention it: @Koishi hello)',
    `  watch it think: ${demo.url}/kotodama   its config form: ${demo.url}/plugins/   log: ${demo.url}/logs`,
  ]
  if (demo.model.offline) {
    lines.push(
      `  model: offline scripted model at ${demo.model.baseURL} (it echoes what you say)`,
      '  for a real LLM: npm start  (set KOTODAMA_BASE_URL / KOTODAMA_API_KEY / KOTODAMA_MODEL,',
      `  default ${DEFAULT_MODEL} on a local Ollama at ${DEFAULT_BASE_URL})`,
    )
  } else {
    lines.push(
      `  model: ${demo.model.model} at ${demo.model.baseURL}`,
      '  change it with KOTODAMA_BASE_URL / KOTODAMA_API_KEY / KOTODAMA_MODEL,',
      '  or run `npm start -- --offline` to try it without any model server',
    )
    if (!await reachable(demo.model.baseURL, env.KOTODAMA_API_KEY ?? '')) {
      lines.push(
        `  WARNING: nothing answers at ${demo.model.baseURL}; replies will fail.`,
        `  Start Ollama (ollama pull ${demo.model.model} && ollama serve) or use --offline.`,
      )
    }
  }
  lines.push('  stop with Ctrl+C', '')
  process.stdout.write(lines.join('\n') + '\n')

  let stopping = false
  const shutdown = () => {
    if (stopping) process.exit(1) // a second Ctrl+C forces it
    stopping = true
    demo.stop().then(() => process.exit(0), (e) => {
      process.stderr.write(`${e?.stack ?? e}\n`)
      process.exit(1)
    })
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`kotodama demo failed to start: ${e?.stack ?? e}\n`)
    process.exit(1)
  })
}
