// 4. The unified exit archiving a 10 MB JSON result, against the least it could do:
// pretty-print once and write one file.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { exitToolResult } from '../src/exit/tool-output'
import { ArtifactStore } from '../src/resources/schemes/artifact-store'
import { AssetStore } from '../src/resources/schemes/asset-store'
import type { Tool } from '../src/contract/tool'
import { proseLine, seeded } from './data'
import { interleave, MB, median, type Mode, type Row } from './measure'

/** An object with many rows whose compact JSON is about `bytes` long. */
export function rowsValue(bytes: number): { rep: number; rows: Record<string, unknown>[] } {
  const random = seeded(5)
  const rows: Record<string, unknown>[] = []
  for (let size = 0, i = 0; size < bytes; i++) {
    const row = {
      id: i, name: `user-${i}`, email: `user${i}@example.com`, score: Math.round(random() * 1e6) / 1e3,
      active: random() < 0.5, tags: ['alpha', 'beta', 'gamma'].slice(0, 1 + (i % 3)), note: proseLine(random, 40, 80),
    }
    size += JSON.stringify(row).length + 1
    rows.push(row)
  }
  return { rep: 0, rows }
}

export async function exitArchive(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'exit')
  const artifacts = join(dir, 'artifacts')
  const plain = join(dir, 'plain')
  const value = rowsValue(10 * MB)
  const compact = JSON.stringify(value).length
  const tool: Tool = { description: '', inputSchema: z.any(), execute: async () => null }
  const ctx = () => ({
    tool: 'bench', callId: 'c', lifetime: 'once' as const,
    stores: { artifacts: new ArtifactStore(artifacts), assets: new AssetStore(join(dir, 'assets')) },
  })
  let rep = 0
  const subject = async () => {
    value.rep = ++rep   // a new content hash: the content-addressed store really writes
    const out = await exitToolResult(tool, {}, value, ctx())
    if (out.output.type !== 'text' || !out.output.value.includes('artifact://bench/')) throw new Error('the result was not archived')
  }
  const baseline = async () => {
    value.rep = ++rep
    await writeFile(join(plain, `${rep}.json`), JSON.stringify(value, null, 2))
  }
  const fresh = async () => {
    await rm(dir, { recursive: true, force: true })
    await mkdir(plain, { recursive: true })
  }
  await fresh()
  const t = await interleave({ subject, baseline }, mode.full ? 15 : 9, 2, fresh)
  const ratio = median(t.subject) / median(t.baseline)
  return [{
    benchmark: `4 exit archiving a ${(compact / MB).toFixed(1)} MB JSON result (${value.rows.length} rows)`,
    figure: median(t.subject), unit: 'ms', baseline: median(t.baseline), baselineLabel: 'stringify(v, null, 2) + writeFile',
    ratio, target: 'ratio ≤ 4', pass: ratio <= 4,
  }]
}
