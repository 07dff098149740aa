// 3. Paging a 5,000-line file to its end through Continue URLs, against reading it whole at once.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TextCache } from '../src/resources/text'
import { localScheme } from '../src/resources/schemes/local'
import { proseText } from './data'
import { interleave, median, type Mode, type Row } from './measure'

export async function pagingToEnd(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'paging')
  await mkdir(dir, { recursive: true })
  const text = proseText(5000, 11)
  const file = join(dir, 'doc.txt')
  await writeFile(file, text)
  const local = localScheme(dir)
  const cache = new TextCache()

  let pages = 0
  const subject = async () => {
    cache.clear()
    let url: string | undefined = 'local://doc.txt'
    let at = 0
    pages = 0
    while (url) {
      const r = await local.read(url, { whole: false, maxBytes: 1 << 25, files: cache })
      if (r.kind !== 'text') throw new Error(`unexpected ${r.kind}`)
      // each page compared with its slice (a memcmp): joining them first cost ~0.2 ms, a fifth of the figure
      if (text.slice(at, at + r.text.length) !== r.text) throw new Error(`page ${pages + 1} is not the file's text at ${at}`)
      at += r.text.length
      pages++
      url = (r as { continueUrl?: string }).continueUrl
    }
    if (at !== text.length) throw new Error('the pages do not add up to the file')
  }
  const baseline = async () => {
    const lines = (await readFile(file, 'utf8')).split('\n')
    if (lines.length !== 5001) throw new Error('unexpected line count')
  }
  const t = await interleave({ subject, baseline }, 30, 3)
  const ratio = median(t.subject) / median(t.baseline)
  return [{
    benchmark: `3 paging 5,000 lines (${(text.length / 1024).toFixed(0)} KiB) to the end, ${pages} pages`,
    figure: median(t.subject), unit: 'ms', baseline: median(t.baseline), baselineLabel: 'readFile + split',
    ratio, target: 'ratio ≤ 3', pass: ratio <= 3, note: `${(median(t.subject) / pages).toFixed(2)} ms a page`,
  }]
}
