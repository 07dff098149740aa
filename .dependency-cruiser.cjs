// Import-cycle check for src/ (npm run check:cycles). Type-only imports count: with
// tsPreCompilationDeps dependency-cruiser reads the TypeScript before `import type` is erased.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
