// The demo's Koishi instance runs through @koishijs/loader, in this process, from a koishi.yml the
// demo writes into its own folder: the console's config page (@koishijs/plugin-config) edits that
// file and reloads plugins through the loader, so it needs one. Plugins are taken from this
// repository's node_modules and kotodama from src/, whatever folder the instance lives in.
// See docs/console.md.
import { writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Logger, type Context, type Dict } from 'koishi'
import NodeLoader from '@koishijs/loader'
import { conclude } from '@koishijs/registry'
import { dump } from 'js-yaml'
import * as kotodama from '../src'
import manifest from '../package.json'

/** Plugin names of the demo's koishi.yml and the modules behind them. */
const MODULES: Dict<() => any> = {
  'http': () => require('@koishijs/plugin-http'),
  'server': () => require('@koishijs/plugin-server'),
  'console': () => require('@koishijs/plugin-console'),
  'config': () => require('@koishijs/plugin-config'),
  'logger': () => require('@koishijs/plugin-logger'),
  'database-memory': () => require('@koishijs/plugin-database-memory'),
  'help': () => require('@koishijs/plugin-help'),
  'sandbox': () => require('@koishijs/plugin-sandbox'),
  'kotodama': () => kotodama,
}

class DemoLoader extends NodeLoader {
  async import(name: string) {
    const short = name.replace(/^(koishi-|@koishijs\/)plugin-/, '')
    if (MODULES[short]) return MODULES[short]()
    // other plugins of this repository's node_modules (the config page lists them)
    for (const full of [`@koishijs/plugin-${short}`, `koishi-plugin-${short}`]) {
      try {
        return require(require.resolve(full))
      } catch {}
    }
    throw new Error(`the demo has no plugin "${name}"`)
  }

  /** set while the demo stops: unloading then neither logs nor rewrites koishi.yml */
  stopping = false

  constructor() {
    super()
    const self = this as any
    const logUpdate = self.logUpdate
    self.logUpdate = (...args: any[]) => this.stopping ? undefined : logUpdate.apply(this, args)
  }

  writeConfig(silent?: boolean) {
    return this.stopping ? Promise.resolve() : super.writeConfig(silent)
  }

  /** `koishi start` restarts its worker here; the in-process demo only says so. */
  fullReload() {
    if (!this.stopping) new Logger('app').warn('a full reload needs a restart of the demo (npm start)')
  }
}

/** Writes `<dir>/koishi.yml` with `plugins` (keys `name:ident`) and starts the instance from it. */
export async function createLoaderApp(dir: string, plugins: Dict): Promise<Context> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, 'koishi.yml')
  const header = '# Written by `npm start` (scripts/demo.ts) at every start; the config page edits it while the demo runs.\n'
  await writeFile(file, header + dump({ plugins }, { lineWidth: 120 }))
  const loader = new DemoLoader()
  await loader.init(file)
  // not readConfig(true): its migration would add dependencies to the package.json of the cwd
  await loader.readConfig()
  return loader.createApp()
}

/**
 * The config page lists the packages it finds in node_modules folders; this repository is the
 * kotodama package itself, so it is added to that list with its form (its Config schema).
 */
export async function showOwnPackage(app: Context): Promise<void> {
  const packages: any = app.get('console.services.packages' as any)
  if (!packages) return
  const own = {
    shortname: 'kotodama', workspace: true, manifest: conclude(JSON.parse(JSON.stringify(manifest))),
    package: { name: manifest.name, version: manifest.version, peerDependencies: manifest.peerDependencies, peerDependenciesMeta: {} },
  }
  const collect = packages.collect.bind(packages)
  packages.collect = async (forced: boolean) => [...(await collect(forced)).filter((o: any) => o?.shortname !== 'kotodama'), own]
  packages.cache.kotodama = await packages.parseExports('kotodama')
  await packages.refresh(false)
}
