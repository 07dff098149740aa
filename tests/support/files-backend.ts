// The history suite's view of the JSONL backend: a temporary conversations folder.
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filesSide } from '../../src/runtime/history-sides'
import { safeName } from '../../src/util/safe-name'
import type { BackendUnderTest } from './history-suite'
import { quiet } from './history-suite'

const lines = async (path: string) => (await readFile(path, 'utf8').catch(() => '')).split('\n').filter(Boolean).length

export async function filesBackend(): Promise<BackendUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-suite-'))
  const file = (key: string) => join(dir, `${safeName(key)}.jsonl`)
  return {
    open: (key, logger = quiet) => filesSide(dir, logger).open(key),
    async plant(key, texts) {
      const before = await lines(file(key))
      await appendFile(file(key), texts.join('\n') + '\n')
      return texts.map((_, i) => `${file(key)}:${before + 1 + i}:`)
    },
    async aside(key) {
      const names = (await readdir(dir)).filter(n => n.startsWith(`${safeName(key)}.`) && n !== `${safeName(key)}.jsonl`)
      let n = 0
      for (const name of names) n += await lines(join(dir, name))
      return n
    },
    close: () => rm(dir, { recursive: true, force: true }),
  }
}
