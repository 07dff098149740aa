// The history suite's view of the JSONL backend: a temporary conversations folder, on a small
// tmpfs of its own where the test may mount one (root), so writes can be made to fail for real:
// a full disk, as in tests/history/disk-full-faults.spec.ts.
import { execFileSync } from 'node:child_process'
import { rmSync, statfsSync, writeFileSync } from 'node:fs'
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filesSide } from '../../src/history/sides'
import { safeName } from '../../src/util/safe-name'
import type { BackendUnderTest } from './history-suite'
import { quiet } from './history-suite'

const lines = async (path: string) => (await readFile(path, 'utf8').catch(() => '')).split('\n').filter(Boolean).length

function mountTmpfs(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export async function filesBackend(): Promise<BackendUnderTest> {
  const root = await mkdtemp(join(tmpdir(), 'kotodama-suite-'))
  const mounted = mountTmpfs(root)
  const dir = join(root, 'conversations')
  const filler = join(root, 'filler')
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
    breakWrites: mounted ? broken => {
      if (!broken) return rmSync(filler, { force: true })
      const s = statfsSync(root)
      writeFileSync(filler, Buffer.alloc(s.bavail * s.bsize))
    } : undefined,
    async close() {
      if (mounted) try { execFileSync('umount', ['-l', root], { stdio: 'ignore' }) } catch {}
      await rm(root, { recursive: true, force: true })
    },
  }
}
