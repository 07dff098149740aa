// Lets Node load the model-facing prose beside the code (`import text from './read.txt'`) as the
// esbuild bundle does (loader: text): tests, the demo and the benchmarks run from the sources.
const { readFileSync } = require('node:fs')

for (const ext of ['.txt', '.md']) {
  require.extensions[ext] = (module, filename) => {
    module.exports = { __esModule: true, default: readFileSync(filename, 'utf8') }
  }
}
