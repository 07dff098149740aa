// Structure check for src/ (npm run check:cycles): no import cycle, and the layers below. Type-only
// imports count: with tsPreCompilationDeps dependency-cruiser reads the TypeScript before `import
// type` is erased.

const { readdirSync } = require('node:fs')

// The layers of src/, lowest first (docs/architecture.md). A folder imports only folders of the
// layers before its own: never a higher one, never another folder of its layer.
const NAMED_LAYERS = [
  ['util'],
  ['claims'],
  ['resources'],
  ['config'],
  ['usage'],
  ['contract'],
  // the one permission check (SPEC §22): below the tools that ask it
  ['trust', 'budgets'],
  ['exit'],
  ['model', 'sandbox', 'typing'],
  ['history'],
  ['tools'],
  ['part'],
  ['people'],
  ['memory', 'tool-search', 'attention', 'mcp', 'voice', 'initiative', 'presence'],
  ['recall'],
  // the sticker section says whether search finds the others (recall's part)
  ['stickers'],
  ['inbound'],
  ['history-pull'],
  ['runtime'],
  ['console-data'],
  ['koishi'],
]

// A folder not named above is a part (its plugin in src/runtime/part-list.ts): it sits just below the
// runtime, so a new capability is a folder and one line of the list, nothing more (issue 37).
const PART_FOLDERS = readdirSync(`${__dirname}/src`, { withFileTypes: true })
  .filter(e => e.isDirectory() && !NAMED_LAYERS.flat().includes(e.name)).map(e => e.name)
const runtimeAt = NAMED_LAYERS.findIndex(layer => layer.includes('runtime'))
const LAYERS = [...NAMED_LAYERS.slice(0, runtimeAt), ...PART_FOLDERS.length ? [PART_FOLDERS] : [], ...NAMED_LAYERS.slice(runtimeAt)]

const any = folders => `^src/(${folders.join('|')})/`
const layerRules = LAYERS.flatMap((layer, i) => layer.map(folder => {
  const above = [...LAYERS.slice(i + 1).flat(), ...layer.filter(f => f !== folder)]
  return {
    name: `layer-${folder}`,
    severity: 'error',
    comment: `src/${folder}/ is in layer ${i} (.dependency-cruiser.cjs LAYERS): it may not import ${above.join(', ')}.`,
    from: { path: `^src/${folder}/` },
    to: { path: any(above) },
  }
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-in-a-layer',
      severity: 'error',
      comment: 'A new folder of src/ gets its place in LAYERS first.',
      from: { path: '^src/[^/]+/' , pathNot: any(LAYERS.flat()) },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module of src/ reaches itself through its imports (type-only imports included).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'koishi-at-the-edge',
      severity: 'error',
      comment: 'Only the Koishi edge (plugin entry, service, commands, config form) imports koishi; the core is testable without a bot.',
      from: { path: '^src/', pathNot: '^src/(koishi/|index\\.ts$|config/schema\\.ts$)' },
      to: { path: '^node_modules/(koishi|@koishijs)/' },
    },
    {
      name: 'core-not-the-edge',
      severity: 'error',
      comment: 'Arrows point inward: nothing below the edge imports src/koishi.',
      from: { path: '^src/', pathNot: '^src/(koishi/|index\\.ts$)' },
      to: { path: '^src/koishi/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^lib/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
  },
}
