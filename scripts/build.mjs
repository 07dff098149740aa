// Bundles src/index.ts to lib/index.js (CommonJS) with the YAML locales inlined, and the codemode
// sandbox's worker thread to lib/sandbox-worker.js beside it; tsc writes the .d.ts.
import { build } from 'esbuild'
import { readFile } from 'node:fs/promises'
import { load } from 'js-yaml'

const yaml = {
  name: 'yaml',
  setup(b) {
    b.onLoad({ filter: /\.ya?ml$/ }, async ({ path }) => ({
      contents: JSON.stringify(load(await readFile(path, 'utf8'))),
      loader: 'json',
    }))
  },
}

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', packages: 'external', charset: 'utf8', sourcemap: true }

await build({
  ...common,
  entryPoints: ['src/index.ts'],
  outfile: 'lib/index.js',
  loader: { '.txt': 'text', '.md': 'text' },
  plugins: [yaml],
})

// Started by src/sandbox/pool.ts from the folder of the bundle
await build({ ...common, entryPoints: ['src/sandbox/worker/main.ts'], outfile: 'lib/sandbox-worker.js' })
