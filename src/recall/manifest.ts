// The manifest of a conversation's index (docs/recall.md "Files"): its segments in order, each
// numbering its messages right after the one before. Written through a temporary file and a rename.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isMissing } from '../resources/fs-error'
import { atomicWrite } from '../util/atomic-write'
import { CorruptIndex, Segment } from './segment'

export const MANIFEST = 'manifest.json'

interface Manifest {
  v: 1
  segments: { file: string; from: number; count: number }[]
}

/** The segments `dir`'s manifest lists, checked (none without a manifest); a part that does not read is CorruptIndex. */
export async function readSegments(dir: string): Promise<Segment[]> {
  let manifest: Manifest = { v: 1, segments: [] }
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8'))
    if (manifest?.v !== 1 || !Array.isArray(manifest.segments)) throw new CorruptIndex(`${dir}: unknown manifest`)
  } catch (e) {
    if (!isMissing(e)) throw e instanceof CorruptIndex ? e : new CorruptIndex(`${dir}: manifest: ${(e as Error)?.message ?? e}`)
  }
  const segments: Segment[] = []
  let next = 0
  try {
    for (const m of manifest.segments) {
      const seg = Segment.open(join(dir, m.file))
      seg.release()
      segments.push(seg)
      if (seg.from !== next || seg.count !== m.count) throw new CorruptIndex(`${dir}/${m.file}: holds ${seg.from}+${seg.count}, expected ${next}+${m.count}`)
      next += seg.count
    }
  } catch (e) {
    segments.forEach(s => s.release())
    throw e
  }
  return segments
}

export function writeManifest(dir: string, segments: readonly Segment[]): Promise<void> {
  const m: Manifest = { v: 1, segments: segments.map(s => ({ file: s.path.slice(dir.length + 1), from: s.from, count: s.count })) }
  return atomicWrite(join(dir, MANIFEST), JSON.stringify(m) + '\n')
}
