// The memory section of every request (SPEC §13): after the protocol, the pinned files in full and
// an index of local://memory/ (URL, size, first line), at most MEMORY_BUDGET UTF-16 units in all.
// A pure function of what the cache holds, so building it touches no disk.
//
// Decisions where the SPEC is silent:
// - Pinned files come first, in configured order; one too long for what is left shows as much as
//   fits, ending with the paging engine's own note that holds the read call that continues it
//   (read counts offsets as this text does). When not even a short start fits, it is named with a
//   read call.
// - The index lists the other files under memory/ in path order (pinned ones are shown already);
//   the entries that do not fit are counted in a last line that says how to list the folder.
import { pageString } from '../resources/paging'
import { clip } from '../util/clip'
import { prose } from '../util/prose'
import HEADER from './section.md'

export const MEMORY_BUDGET = 8000
/** A pinned file is cut rather than only named when at least this much of it would show. */
const MIN_PINNED_UNITS = 200
/** Kept free for the index heading and its last line while pinned files are placed. */
const INDEX_RESERVE = 400

export interface PinnedView {
  url: string
  /** undefined: the file does not exist (yet) */
  text?: string
  bytes?: number
  /** why it cannot be shown (a folder, binary, outside local/) */
  problem?: string
}

export interface IndexEntry {
  url: string
  bytes: number
  firstLine: string
}

export interface SectionInput {
  pinned: PinnedView[]
  /** undefined: the index is switched off */
  index?: IndexEntry[]
  /** URL of the indexed folder */
  folder: string
  budget?: number
}

const readCall = (url: string) => `read({url: ${JSON.stringify(url)}})`
const bytes = (n: number) => `${n} byte${n === 1 ? '' : 's'}`

export function memorySection(o: SectionInput): string {
  const budget = o.budget ?? MEMORY_BUDGET
  const parts: string[] = [prose(HEADER)]
  let used = parts[0].length
  // each part after the first costs its length and the blank line before it
  const room = (units: number, reserve = 0) => used + 2 + units + reserve <= budget
  const fits = (text: string, reserve = 0) => room(text.length, reserve)
  const add = (text: string) => { parts.push(text); used += 2 + text.length }
  const reserve = o.index ? INDEX_RESERVE : 0
  // pinned files with no room even for their own line: named together at the end, never at the
  // cost of the index
  const unnamed: string[] = []
  const names = o.pinned.map(p => `### ${p.url} (pinned${p.bytes !== undefined ? `, ${bytes(p.bytes)}` : ''}): over the memory budget; ${readCall(p.url)}`)
  // a pinned file cut to fit leaves room to name the ones after it
  let later = names.reduce((n, line) => n + 2 + line.length, 0)
  o.pinned.forEach((p, i) => {
    later -= 2 + names[i].length
    const block = pinnedBlock(p, budget - used - 2 - reserve - later)
    if (fits(block, reserve + later)) add(block)
    else if (fits(names[i], reserve)) add(names[i])
    else unnamed.push(p.url)
  })
  if (unnamed.length) {
    const head = `[${unnamed.length} more pinned file${unnamed.length === 1 ? '' : 's'} over the memory budget`
    const all = `${head}: ${unnamed.map(readCall).join(', ')}]`
    const first = `${head}; the first: ${readCall(unnamed[0])}; the others are in memory.pinned]`
    if (fits(all, reserve)) add(all)
    else if (fits(first, reserve)) add(first)
  }
  if (o.index) {
    const files = o.index
    const heading = files.length ? `### Index of ${o.folder} (${files.length} file${files.length === 1 ? '' : 's'})` : `### Index of ${o.folder}: no notes yet`
    const lines = [heading]
    let length = heading.length
    for (let i = 0; i < files.length; i++) {
      const line = `- ${files[i].url} (${bytes(files[i].bytes)})${files[i].firstLine ? ': ' + files[i].firstLine : ''}`
      const rest = files.length - i - 1
      const tail = rest ? moreLine(rest, o.folder).length + 1 : 0
      if (room(length + 1 + line.length + tail)) {
        lines.push(line)
        length += 1 + line.length
        continue
      }
      lines.push(moreLine(files.length - i, o.folder))
      break
    }
    const text = lines.join('\n')
    if (fits(text)) add(text)
  }
  return parts.join('\n\n')
}

function moreLine(n: number, folder: string): string {
  return `[${n} more file${n === 1 ? '' : 's'} not listed; ${readCall(folder)} lists the folder]`
}

/** The pinned file whole, or cut to `room` units with a note that continues it. */
function pinnedBlock(p: PinnedView, room: number): string {
  if (p.problem) return `### ${p.url} (pinned): ${clip(p.problem)}`
  if (p.text === undefined) return `### ${p.url} (pinned): does not exist yet; create it with write`
  const head = `### ${p.url} (pinned, ${bytes(p.bytes)})\n`
  const whole = head + p.text.replace(/\n$/, '')
  if (whole.length <= room || room - head.length < MIN_PINNED_UNITS) return whole
  const page = pageString(p.text, 0, next => `${p.url}?offset=${next}`, { lines: 2000, units: room - head.length })
  return head + page.rendered
}
