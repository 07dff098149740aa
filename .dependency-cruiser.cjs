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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|lib)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
  },
}
