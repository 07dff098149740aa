// Generated inputs. Deterministic (seeded), written in large blocks so a 1 GB file takes seconds.
import { open } from 'node:fs/promises'

/** mulberry32: a small seeded PRNG, so every run reads the same bytes. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = 'the a request worker cache page line token reply model channel user send read file queue index offset budget archive sandbox program turn typing delay'.split(' ')

/** A line of prose-like ASCII, `min`..`max` characters long (without the newline). */
export function proseLine(random: () => number, min = 60, max = 120): string {
  const length = min + Math.floor(random() * (max - min + 1))
  let s = ''
  while (s.length < length) s += (s ? ' ' : '') + WORDS[Math.floor(random() * WORDS.length)]
  return s.slice(0, length)
}

/** `lines` lines of 60–120 characters each. */
export function proseText(lines: number, seed = 1): string {
  const random = seeded(seed)
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(proseLine(random))
  return out.join('\n') + '\n'
}

/** A text file of exactly `bytes` bytes: one 8 MiB block of prose lines repeated, the tail cut at a line end. */
export async function writeTextFile(path: string, bytes: number): Promise<void> {
  const block = Buffer.from(proseText(100_000, 7)).subarray(0, 8 << 20)
  const usable = block.subarray(0, block.lastIndexOf(10) + 1)
  const file = await open(path, 'w')
  try {
    for (let written = 0; written < bytes;) {
      const n = Math.min(usable.length, bytes - written)
      await file.write(usable, 0, n, written)
      written += n
    }
  } finally {
    await file.close()
  }
}

/** A log of `lines` numbered lines of about 100 bytes; line i starts with `i ` so pages can be checked. */
export async function writeLog(path: string, lines: number): Promise<void> {
  const random = seeded(3)
  const levels = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR']
  const file = await open(path, 'w')
  try {
    let position = 0
    for (let start = 1; start <= lines; start += 50_000) {
      const batch: string[] = []
      for (let i = start; i < Math.min(lines + 1, start + 50_000); i++) {
        const ms = 1_700_000_000_000 + i * 37
        const level = levels[Math.floor(random() * levels.length)]
        batch.push(`${i} ${new Date(ms).toISOString()} ${level} worker-${i % 8} ${proseLine(random, 40, 70)}`)
      }
      const chunk = Buffer.from(batch.join('\n') + '\n')
      await file.write(chunk, 0, chunk.length, position)
      position += chunk.length
    }
  } finally {
    await file.close()
  }
}
