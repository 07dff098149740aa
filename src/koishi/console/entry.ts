// The page's files (SPEC §12): `dist/` built by @koishijs/client (`npm run build`), or
// `client/index.ts` when the console runs in dev mode. See docs/console.md.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, join, resolve, sep } from 'node:path'
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-server'

/** The package's root: `lib/` (the bundle) and `src/koishi/console/` (sources) both sit below it. */
export function packageRoot(from = __dirname): string {
  let dir = from
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

export function registerEntry(ctx: Context) {
  const root = packageRoot()
  const dist = join(root, 'dist')
  const entry = ctx.console.addEntry({ dev: join(root, 'client', 'index.ts'), prod: dist })
  // The console serves an entry's files only from its own folder or from node_modules; a
  // checkout (the demo, the tests) serves `dist/` itself, the way the console would.
  const config = (ctx.console as any).config ?? {}
  const server = ctx.get('server')
  if (config.devMode || dist.split(sep).includes('node_modules') || !server) return
  const prefix = `${config.uiPath ?? ''}/@plugin-${entry.id}/`
  // Whichever of the two routes runs first, this one's answer stands (its status is explicit).
  server.get(`${prefix}(.*)`, async (koa, next) => {
    await next()
    const file = resolve(dist, koa.path.slice(prefix.length))
    if (!file.startsWith(dist + sep)) return koa.status = 403
    const text = await readFile(file, 'utf8').catch((): undefined => undefined)
    if (text === undefined) return koa.status = 404
    koa.status = 200
    koa.type = extname(file)
    koa.body = koa.type === 'application/javascript' ? sharedImports(text) : text
  })
}

/** The console's rewrite of a built page's imports to the modules it serves once for all pages. */
function sharedImports(source: string): string {
  const shared: Record<string, string> = {
    'vue': '../vue.js', 'vue-router': '../vue-router.js', '@vueuse/core': '../vueuse.js', '@koishijs/client': '../client.js',
  }
  const imports = /((?:^|;)import\b[^'"]+\bfrom\s*)(['"])([^'"]+)\2(?=;)/gm
  return source.replace(imports, (all, left, quote, path) => shared[path] ? `${left}${quote}${shared[path]}${quote}` : all)
}
