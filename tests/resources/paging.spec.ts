import { expect } from 'chai'
import fc from 'fast-check'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pageString, renderTruncatedNote, sliceLineRange, TEXT_BUDGET, type Budget, type Page } from '../../src/resources/paging'
import { ResourceError } from '../../src/resources/errors'
import { composeSelectors, parseFileUrl, withOffset, type FileUrl, type LineRange } from '../../src/resources/file-url'
import { looksBinary, readFilePage, readFileRangeText, TextCache, type FilePageResult, type TextLimits } from '../../src/resources/text'
import { ResourceCenter } from '../../src/resources/center'
import { localScheme } from '../../src/resources/schemes/local'
import { ArtifactStore } from '../../src/resources/schemes/artifact-store'
import { artifactScheme } from '../../src/resources/schemes/artifact'
import { exitToolResult } from '../../src/exit/tool-output'
import { tinyPng } from '../support/tiny-png'

const SMALL: Budget = { lines: 6, units: 160 }
/** Bounds a failing run's shrinking too, so a regression reports instead of hanging CI. */
const limited = (numRuns: number) => ({ numRuns, plugins: [fc.interruptAfterTimeLimit(15_000)] })

let dir: string
let fileCount = 0

before(() => { dir = mkdtempSync(join(tmpdir(), 'kotodama-paging-')) })
after(() => rmSync(dir, { recursive: true, force: true }))

/** How a file is served: its kept text, streamed, or streamed first and kept from its first Continue. */
const MODES = [
  ['kept text', { eager: 1 << 20, onContinue: 1 << 20 }],
  ['streamed', { eager: 0, onContinue: 0 }],
  ['kept from the first Continue', { eager: 0, onContinue: 1 << 20 }],
] as const

function writeTemp(content: string | Uint8Array): string {
  const path = join(dir, `t${fileCount++}.txt`)
  writeFileSync(path, content)
  return path
}

// ---------------------------------------------------------------- oracles

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') || !text ? 1 : 0)
}

/** Lines with their terminators, split independently of the code under test. */
function expectedRange(text: string, range?: LineRange): string {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? []
  if (!range) return text
  return lines.slice(range.start - 1, range.end === undefined ? undefined : Math.max(range.start - 1, range.end)).join('')
}

/** Reference for the documented rule: a valid UTF-8 sequence is its character, any other byte one U+FFFD. */
function decodeGreedily(bytes: Uint8Array): string {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  let out = ''
  for (let i = 0; i < bytes.length;) {
    const length = [1, 2, 3, 4].find((n) => {
      try {
        return [...strict.decode(bytes.subarray(i, i + n))].length === 1 && i + n <= bytes.length
      } catch {
        return false
      }
    })
    out += length ? strict.decode(bytes.subarray(i, i + length)) : '\uFFFD'
    i += length ?? 1
  }
  return out
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff

function continueOffset(note: string): { url: FileUrl, offset: number } {
  const match = /^\[truncated[^\n]*read\(\{url: ("(?:[^"\\]|\\.)*")\}\)/.exec(note)
  expect(match, note).to.not.equal(null)
  const url = parseFileUrl(JSON.parse(match[1]))
  return { url, offset: url.offset ?? 0 }
}

function noteLength(url: FileUrl, next: number): number {
  return renderTruncatedNote(withOffset(url, next)).length
}

/** A page that uses one more line (or code point) than `body` would not fit. */
function expectMaximal(rest: string, body: string, url: FileUrl, offset: number, budget: Budget): void {
  let alt: string
  if (body.endsWith('\n')) {
    const nl = rest.indexOf('\n', body.length)
    alt = nl < 0 ? rest : rest.slice(0, nl + 1)
  } else {
    alt = rest.slice(0, body.length + (isHigh(rest.charCodeAt(body.length)) ? 2 : 1))
  }
  if (alt === rest) {
    expect(rest.length > budget.units || lineCount(rest) > budget.lines, 'the rest fits on one page').to.equal(true)
    return
  }
  const separator = alt.endsWith('\n') ? 0 : 1
  const units = alt.length + separator + noteLength(url, offset + alt.length)
  expect(units > budget.units || lineCount(alt) + 1 > budget.lines, `page could hold ${JSON.stringify(alt.slice(body.length))}`).to.equal(true)
}

function checkPage(page: Page, rangeText: string, offset: number, url: FileUrl, budget: Budget): number | undefined {
  const { body, note, rendered } = page
  expect(rangeText.startsWith(body, offset), 'body is the range text at offset').to.equal(true)
  expect(rendered.length, 'units').to.be.at.most(budget.units)
  expect(lineCount(rendered), 'lines').to.be.at.most(budget.lines)
  if (body) {
    expect(isLow(body.charCodeAt(0)), 'starts inside a pair').to.equal(false)
    expect(isHigh(body.charCodeAt(body.length - 1)), 'ends inside a pair').to.equal(false)
  }
  if (note === undefined) {
    expect(offset + body.length, 'last page reaches the end').to.equal(rangeText.length)
    expect(rendered).to.equal(body)
    expect(page.nextOffset).to.equal(undefined)
    return undefined
  }
  expect(note).to.match(/^\[truncated/).and.not.include('\n')
  expect(rendered).to.equal(body + (body.endsWith('\n') ? '' : '\n') + note)
  const next = continueOffset(note)
  expect(next.offset).to.equal(offset + body.length).and.equal(page.nextOffset)
  expect(next.url.selectors).to.deep.equal(url.selectors)
  expect(body.length, 'progress').to.be.above(0)
  expectMaximal(rangeText.slice(offset), body, url, offset, budget)
  expectNotMostlyEmpty(page, rangeText.slice(offset), url, offset, budget)
  return next.offset
}

/**
 * SPEC §6: a truncated page is never left mostly empty. Its body ends at a line end, or holds at
 * least half the budget, or is cut inside its first line, or the page is full (not one more code
 * point fits: only a long note keeps a cut page below half); and a body that ends at a line end
 * with less than half the budget leaves no room for one more code point (or no line).
 */
function expectNotMostlyEmpty(page: Page, rest: string, url: FileUrl, offset: number, budget: Budget): void {
  const { body } = page
  const half = budget.units / 2
  const full = !nextCodePointFits(rest, body, url, offset, budget)
  expect(body.endsWith('\n') || body.length >= half || !body.includes('\n') || full, 'cut after whole lines on a page less than half full').to.equal(true)
  if (body.endsWith('\n') && body.length < half) expect(full, `a page less than half full could hold ${JSON.stringify(rest.slice(body.length, body.length + 2))}`).to.equal(true)
}

/** Whether the page could also hold the code point after `body` (with its note, or as the last page). */
function nextCodePointFits(rest: string, body: string, url: FileUrl, offset: number, budget: Budget): boolean {
  const alt = rest.slice(0, body.length + (isHigh(rest.charCodeAt(body.length)) ? 2 : 1))
  if (alt === rest) return rest.length <= budget.units && lineCount(rest) <= budget.lines
  const units = alt.length + (alt.endsWith('\n') ? 0 : 1) + noteLength(url, offset + alt.length)
  return units <= budget.units && lineCount(alt) + 1 <= budget.lines
}

// ---------------------------------------------------------------- generators

const shortChar = fc.constantFrom('a', 'b', ' ', 'é', '中', '文', 'ア', '😀', '🎉', '\r', '\t', '"')

/** Many short lines (CJK, emoji, CR, empty) with a few lines longer than the whole budget. */
function textArb(budget: Budget) {
  const short = fc.array(shortChar, { maxLength: 40 }).map((chars) => chars.join(''))
  const content = fc.oneof({ arbitrary: short, weight: 4 }, { arbitrary: fc.constant(''), weight: 1 })
  const line = fc.tuple(content, fc.constantFrom('\n', '\n', '\r\n')).map(([c, ending]) => c + ending)
  const long = fc.tuple(
    fc.constantFrom('x', '中', '😀', 'ab😀', 'a\r'),
    fc.integer({ min: budget.units + 1, max: Math.floor(budget.units * 1.6) }),
    fc.constantFrom('\n', '\r\n', ''),
  ).map(([unit, units, ending]) => unit.repeat(Math.ceil(units / unit.length)) + ending)
  const insert = fc.tuple(long, fc.nat())
  return fc.record({
    lines: fc.array(line, { maxLength: budget.lines * 3, size: 'max' }),
    longs: fc.array(insert, { maxLength: 3 }),
    tail: fc.oneof(fc.constant(''), short),
  }).map(({ lines, longs, tail }) => {
    for (const [text, at] of longs) lines.splice(at % (lines.length + 1), 0, text.endsWith('\n') ? text : text + '\n')
    return lines.join('') + tail
  })
}

function selectorArb(maxLine: number) {
  const n = fc.integer({ min: 1, max: maxLine })
  return fc.oneof(
    n.map((a) => `:${a}`),
    fc.tuple(n, fc.integer({ min: 0, max: maxLine })).map(([a, d]) => `:${a}-${a + d}`),
    fc.tuple(n, fc.integer({ min: 1, max: maxLine })).map(([a, c]) => `:${a}+${c}`),
  )
}

function urlArb(budget: Budget) {
  return fc.array(selectorArb(budget.lines * 2), { maxLength: 2 }).map((s) => parseFileUrl(`local://dir/t%3A1.txt${s.join('')}`))
}

// ---------------------------------------------------------------- runners

function pagesOfString(rangeText: string, url: FileUrl, budget: Budget): string {
  let out = ''
  for (let offset: number | undefined = 0, n = 0; offset !== undefined; n++) {
    expect(n, 'too many pages').to.be.below(10_000)
    const page = pageString(rangeText, offset, (k) => withOffset(url, k), budget)
    out += page.body
    offset = checkPage(page, rangeText, offset, url, budget)
  }
  return out
}

function checkSource(page: FilePageResult, text: string, range: LineRange | undefined, offset: number): void {
  const startIndex = text.length - expectedRange(text, range ? { start: range.start } : undefined).length
  const index = startIndex + offset
  const before = text.slice(0, index)
  if (index < text.length || (range?.end === undefined && offset > 0)) {
    expect(page.source.line, 'source.line').to.equal(before.split('\n').length)
    expect(page.source.column, 'source.column').to.equal(index - before.lastIndexOf('\n'))
  }
  expect(page.source.offset).to.equal(offset)
  const total = lineCount(text)
  expect(page.range.startLine).to.equal(range?.start ?? 1)
  if (page.range.totalLines !== undefined) expect(page.range.totalLines).to.equal(total)
  if (page.range.totalChars !== undefined) expect(page.range.totalChars).to.equal(text.length)
  if (page.range.endLine !== undefined && !(range?.end < range?.start)) expect(page.range.endLine).to.equal(Math.min(range?.end ?? Infinity, total))
}

async function pagesOfFile(cache: TextCache, path: string, text: string, rangeText: string, url: FileUrl, budget: Budget, coldMask: number): Promise<string> {
  const range = composeSelectors(url.selectors)
  let out = ''
  for (let offset: number | undefined = 0, n = 0; offset !== undefined; n++) {
    expect(n, 'too many pages').to.be.below(10_000)
    if ((coldMask >> (n % 30)) & 1) cache.clear()
    const page = await readFilePage({ path, cache, range, offset, continueUrl: (k) => withOffset(url, k), budget })
    checkSource(page, text, range, offset)
    out += page.body
    offset = checkPage(page, rangeText, offset, url, budget)
  }
  return out
}

// ---------------------------------------------------------------- properties

describe('paging properties', () => {
  for (const [name, budget, numRuns] of [['small budget', SMALL, 300], ['real budget', TEXT_BUDGET, 40]] as const) {
    it(`pageString reproduces every range (${name})`, () => {
      fc.assert(fc.property(textArb(budget), urlArb(budget), (text, url) => {
        const range = composeSelectors(url.selectors)
        const rangeText = expectedRange(text, range)
        expect(sliceLineRange(text, range)).to.equal(rangeText)
        expect(pagesOfString(rangeText, url, budget)).to.equal(rangeText)
      }), limited(numRuns))
    })

    for (const [mode, limits] of MODES) {
      it(`readFilePage reproduces every range, warm or cold (${name}, ${mode})`, async () => {
        const cache = new TextCache(limits)
        await fc.assert(fc.asyncProperty(textArb(budget), urlArb(budget), fc.nat(), async (text, url, coldMask) => {
          const path = writeTemp(text)
          try {
            const range = composeSelectors(url.selectors)
            const rangeText = expectedRange(text, range)
            expect(await pagesOfFile(cache, path, text, rangeText, url, budget, coldMask)).to.equal(rangeText)
            expect(await readFileRangeText({ path, cache, range })).to.equal(rangeText)
          } finally {
            rmSync(path)
          }
        }), limited(numRuns))
      })
    }
  }

  const bytePiece = fc.oneof(
    fc.constantFrom('a', '\n', 'é', '中', '😀', '\r\n').map((s) => [...Buffer.from(s)]),
    fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 3 }),
    fc.constantFrom([0xef, 0xbf, 0xbd], [0xf0, 0x9f], [0xe4, 0xb8]),
  )

  for (const [mode, limits] of MODES) {
    it(`decodes arbitrary bytes the same way page by page as in one read (${mode})`, async () => {
      const cache = new TextCache(limits)
      await fc.assert(fc.asyncProperty(fc.array(bytePiece, { maxLength: 400, size: 'max' }), urlArb(SMALL), fc.nat(), async (pieces, url, coldMask) => {
        const bytes = Uint8Array.from(pieces.flat())
        const path = writeTemp(bytes)
        try {
          const text = await readFileRangeText({ path, cache })
          expect(text).to.equal(decodeGreedily(bytes))
          const range = composeSelectors(url.selectors)
          const rangeText = expectedRange(text, range)
          expect(await pagesOfFile(cache, path, text, rangeText, url, SMALL, coldMask)).to.equal(rangeText)
        } finally {
          rmSync(path)
        }
      }), limited(100))
    })
  }

  it('a kept text and the streamed file give the same page for any offset, or the same error', async () => {
    const [kept, streamed] = [MODES[0][1], MODES[1][1]]
    // a fresh cache per read: nothing carries over from the other mode
    const read = (limits: TextLimits, path: string, range: LineRange | undefined, offset: number, url: FileUrl) =>
      readFilePage({ path, cache: new TextCache(limits), range, offset, continueUrl: (k) => withOffset(url, k), budget: SMALL })
        .catch((e) => ({ error: e instanceof ResourceError ? e.code : String(e) }))
    // now and then a long piece, so that a kept text spans several 64 KiB pieces
    const long = fc.constantFrom('x'.repeat(40_000) + '\n', '中'.repeat(15_000), '😀'.repeat(9_000) + '\n').map((s) => [...Buffer.from(s)])
    const piece = fc.oneof({ arbitrary: bytePiece, weight: 400 }, { arbitrary: long, weight: 1 })
    await fc.assert(fc.asyncProperty(fc.array(piece, { maxLength: 300, size: 'max' }), urlArb(SMALL), fc.nat(), async (pieces, url, seed) => {
      const bytes = Uint8Array.from(pieces.flat())
      const path = writeTemp(bytes)
      try {
        const range = composeSelectors(url.selectors)
        const offset = seed % (bytes.length + 4)
        const a = await read(kept, path, range, offset, url)
        const b = await read(streamed, path, range, offset, url)
        if ('error' in a || 'error' in b) return void expect(a).to.deep.equal(b)
        expect({ ...a, range: undefined }).to.deep.equal({ ...b, range: undefined })
        expect(a.range.totalLines).to.be.a('number')
        expect(a.range.totalChars).to.be.a('number')
        for (const key of ['startLine', 'endLine', 'totalLines', 'totalChars'] as const) {
          if (b.range[key] !== undefined) expect(a.range[key], key).to.equal(b.range[key])
        }
      } finally {
        rmSync(path)
      }
    }), limited(300))
  })
})

// ---------------------------------------------------------------- examples

describe('paging examples', () => {
  const url = parseFileUrl('local://big.txt')
  const continueUrl = (k: number) => withOffset(url, k)

  let cache: TextCache
  beforeEach(() => { cache = new TextCache() })

  it('pages a 5,000-line file to the end in 3 pages', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}\n`).join('')
    const path = writeTemp(text)
    const pages: FilePageResult[] = []
    for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1).nextOffset) {
      pages.push(await readFilePage({ path, cache, offset, continueUrl }))
    }
    expect(pages.map((p) => p.source.line)).to.deep.equal([1, 2000, 3999])
    expect(pages.map((p) => lineCount(p.rendered))).to.deep.equal([2000, 2000, 1002])
    expect(pages.map((p) => p.body).join('')).to.equal(text)
    expect(pages[0].range).to.deep.equal({ startLine: 1, endLine: 5000, totalLines: 5000, totalChars: text.length })
    expect(pages[0].note).to.equal(`[truncated; to continue, call read({url: "local://big.txt?offset=${pages[1].source.offset}"})]`)
  })

  it('cuts a line longer than the budget and gives the position of the rest', async () => {
    const text = 'head\n' + 'x'.repeat(70_000) + '\ntail\n'
    const path = writeTemp(text)
    const first = await readFilePage({ path, cache, range: { start: 2 }, continueUrl })
    expect(first.rendered.length).to.equal(TEXT_BUDGET.units)
    expect(first.body).to.equal('x'.repeat(first.nextOffset))
    const second = await readFilePage({ path, cache, range: { start: 2 }, offset: first.nextOffset, continueUrl })
    expect(second.source).to.deep.equal({ offset: first.nextOffset, line: 2, column: first.nextOffset + 1 })
    cache.clear()
    const cold = await readFilePage({ path, cache, range: { start: 2 }, offset: first.nextOffset, continueUrl })
    expect(cold).to.deep.equal(second)
  })

  it('seeks lines of a large file through its sparse index in any order', async () => {
    const text = Array.from({ length: 60_000 }, (_, i) => `${i + 1} ${'中😀ab'.repeat(i % 13)}\n`).join('')
    const path = writeTemp(text)
    for (const start of [40_000, 10, 30_001, 59_999, 1025, 2049, 60_000, 70_000, 45_678]) {
      const range = { start, end: start + 2500 }
      const page = await readFilePage({ path, cache, range, continueUrl, budget: SMALL })
      const rangeText = expectedRange(text, range)
      expect(rangeText.startsWith(page.body), `line ${start}`).to.equal(true)
      expect(page.body.length > 0).to.equal(start <= 60_000)
      if (start <= 60_000) expect(page.source).to.deep.equal({ offset: 0, line: start, column: 1 })
      if (page.range.totalLines !== undefined) expect(page.range.totalLines).to.equal(60_000)
      expect(page.range.endLine).to.be.oneOf(start > 57_500 ? [60_000, undefined] : [range.end, undefined])
    }
    const whole = await readFileRangeText({ path, cache, range: { start: 30_000, end: 30_002 } })
    expect(whole).to.equal(expectedRange(text, { start: 30_000, end: 30_002 }))
  })

  it('is never left mostly empty: `{` and one 200,000-unit line show about 30,000 units at first', async () => {
    const text = '{\n  "stdout": "' + 'x'.repeat(200_000) + '"\n}'
    const first = pageString(text, 0, continueUrl)
    expect(first.body.length).to.be.above(29_000)
    expect(first.rendered.length).to.be.at.most(TEXT_BUDGET.units)
    expect(first.body.startsWith('{\n  "stdout": "xxx')).to.equal(true)
    expect(first.rendered).to.equal(first.body + '\n' + first.note)
    const path = writeTemp(text)
    for (const [mode, limits] of MODES) {
      const c = new TextCache(limits)
      const pages: FilePageResult[] = []
      for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1).nextOffset) {
        pages.push(await readFilePage({ path, cache: c, offset, continueUrl }))
      }
      expect(pages[0].body, mode).to.equal(first.body)
      expect(pages[1].source, mode).to.deep.equal({ offset: first.body.length, line: 2, column: first.body.length - 1 })
      expect(pages.map((p) => p.body).join(''), mode).to.equal(text)
    }
    // a page at least half full keeps its lines whole
    const halves = 'a'.repeat(20_000) + '\n' + 'b'.repeat(20_000) + '\n'
    expect(pageString(halves, 0, continueUrl).body).to.equal('a'.repeat(20_000) + '\n')
    // a page full by lines is not topped up
    const lines = 'x\n'.repeat(1999) + 'y'.repeat(40_000)
    expect(pageString(lines, 0, continueUrl).body).to.equal('x\n'.repeat(1999))
  })

  it('an archived result whose second line is huge shows most of it on the first page', async () => {
    const artifacts = new ArtifactStore(join(dir, 'artifacts'))
    const plain = { description: '', inputSchema: undefined as any, execute: async (): Promise<unknown> => null }
    const ctx = { tool: 'probe', callId: 'c1', stores: { artifacts, assets: undefined as any } }
    const stdout = 'z'.repeat(200_000)
    const { output } = await exitToolResult(plain, {}, { stdout }, ctx)
    const shown = (output as any).value as string
    expect(shown.length).to.be.within(29_000, TEXT_BUDGET.units)
    expect(shown.startsWith('{\n  "stdout": "zzz')).to.equal(true)
    const next = /read\(\{url: "([^"]+)"\}\)\]$/.exec(shown)[1]
    const center = new ResourceCenter()
    center.register(artifactScheme(artifacts))
    let body = shown.slice(0, shown.lastIndexOf('\n'))
    for (let url: string | undefined = next; url;) {
      const page = await center.read(url, { whole: false, maxBytes: 1 << 25 }) as any
      body += page.text
      url = page.continueUrl
    }
    expect(body).to.equal(JSON.stringify({ stdout }, null, 2))
  })

  it('never splits a surrogate pair at a cut', () => {
    const text = '😀'.repeat(40_000)
    for (let offset: number | undefined = 0; offset !== undefined;) {
      const page = pageString(text, offset, continueUrl)
      expect(page.body.length % 2).to.equal(0)
      offset = page.nextOffset
    }
  })

  it('refuses an offset inside a surrogate pair', async () => {
    const text = 'a😀b\n'
    const path = writeTemp(text)
    expect(() => pageString(text, 2, continueUrl)).to.throw(ResourceError).with.property('code', 'invalid_url')
    const error = await readFilePage({ path, cache, offset: 2, continueUrl }).catch((e) => e)
    expect(error).to.be.instanceOf(ResourceError).with.property('code', 'invalid_url')
  })

  it('gives an empty last page for an offset at or past the end', async () => {
    const path = writeTemp('ab\ncd\n')
    expect(pageString('ab\n', 3, continueUrl)).to.deep.equal({ body: '', rendered: '' })
    const page = await readFilePage({ path, cache, range: { start: 1, end: 1 }, offset: 9, continueUrl })
    expect(page).to.include({ body: '', rendered: '' })
    expect(page.note).to.equal(undefined)
  })

  it('escapes the continue URL as JSON inside the note', () => {
    const odd = parseFileUrl('local://say "hi".txt')
    const page = pageString('y'.repeat(40_000), 0, (k) => withOffset(odd, k))
    expect(page.note).to.include('read({url: "local://say \\"hi\\".txt?offset=')
    expect(continueOffset(page.note).url.segments).to.deep.equal(['say "hi".txt'])
  })

  it('keeps a BOM and CRLF as stored', async () => {
    const text = '\uFEFFa\r\nb\r\n'
    const path = writeTemp(text)
    const page = await readFilePage({ path, cache, continueUrl })
    expect(page.body).to.equal(text)
    expect(page.range.totalChars).to.equal(7)
  })

  it('reads a changed file again instead of its kept text', async () => {
    const path = writeTemp('first\n')
    expect((await readFilePage({ path, cache, continueUrl })).body).to.equal('first\n')
    writeFileSync(path, 'other\n')
    utimesSync(path, new Date(), new Date(Date.now() + 5000))
    expect((await readFilePage({ path, cache, continueUrl })).body).to.equal('other\n')
    writeFileSync(path, 'longer now\n')
    expect((await readFilePage({ path, cache, continueUrl })).body).to.equal('longer now\n')
    expect(await readFileRangeText({ path, cache })).to.equal('longer now\n')
  })

  it('streams the first page of a 300 KiB file and keeps its text from the first Continue on', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `${i + 1} ${'中文 text '.repeat(1 + (i % 9))}\n`).join('')
    expect(Buffer.byteLength(text)).to.be.within(256 << 10, 1 << 20)
    const path = writeTemp(text)
    const pages: FilePageResult[] = []
    for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1).nextOffset) {
      pages.push(await readFilePage({ path, cache, offset, continueUrl }))
    }
    expect(pages.map((p) => p.body).join('')).to.equal(text)
    expect(pages[0].range).to.deep.equal({ startLine: 1 })
    for (const page of pages.slice(1)) expect(page.range).to.deep.equal({ startLine: 1, endLine: 5000, totalLines: 5000, totalChars: text.length })
    cache.clear()
    const cold = await readFilePage({ path, cache, offset: pages[2].source.offset, continueUrl })
    expect(cold).to.deep.equal(pages[2])
  })

  it('reports a missing file and a too large range', async () => {
    const missing = await readFilePage({ path: join(dir, 'nope.txt'), cache, continueUrl }).catch((e) => e)
    expect(missing).to.be.instanceOf(ResourceError).with.property('code', 'not_found')
    const path = writeTemp('0123456789\n'.repeat(100))
    expect(await readFileRangeText({ path, cache, range: { start: 2, end: 3 }, maxBytes: 100 })).to.equal('0123456789\n'.repeat(2))
    const error = await readFileRangeText({ path, cache, maxBytes: 100 }).catch((e) => e)
    expect(error).to.be.instanceOf(ResourceError).with.property('code', 'too_large')
  })

  it('tells binary from text', () => {
    const png = tinyPng(0, 1, 1)
    expect(looksBinary(png)).to.equal(true)
    expect(looksBinary(Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256 || 1))).to.equal(true)
    expect(looksBinary(Buffer.from('plain text\r\n\t中文 😀\n'.repeat(50)))).to.equal(false)
    expect(looksBinary(Buffer.from('中文'.repeat(10)).subarray(0, 29))).to.equal(false)
    expect(looksBinary(Buffer.from('caf\xe9 au lait, tr\xe8s bien. '.repeat(20), 'latin1'))).to.equal(false)
    expect(looksBinary(new Uint8Array())).to.equal(false)
  })
})


// ---------------------------------------------------------------- caches

describe('text caches', () => {
  const url = parseFileUrl('local://kept.txt')
  const continueUrl = (k: number) => withOffset(url, k)
  const when = new Date('2024-01-02T03:04:05Z')

  function writeDated(text: string): string {
    const path = writeTemp(text)
    utimesSync(path, when, when)
    return path
  }

  /** Rewrites the file with as many bytes and the same mtime: only a cache still shows the old text. */
  function swapUnnoticed(path: string, text: string): void {
    writeFileSync(path, text)
    utimesSync(path, when, when)
  }

  it('keeps what one cache remembered out of another, and forgets it on clear()', async () => {
    const path = writeDated('before\n')
    const a = new TextCache()
    const b = new TextCache()
    expect((await readFilePage({ path, cache: a, continueUrl })).body).to.equal('before\n')
    swapUnnoticed(path, 'after!\n')
    expect((await readFilePage({ path, cache: a, continueUrl })).body, 'remembered in a').to.equal('before\n')
    expect((await readFilePage({ path, cache: b, continueUrl })).body, 'never read through b').to.equal('after!\n')
    expect(await readFileRangeText({ path, cache: b })).to.equal('after!\n')
    a.clear()
    expect((await readFilePage({ path, cache: a, continueUrl })).body, 'a after clear()').to.equal('after!\n')
  })

  it('has today\'s limits unless told otherwise, and keeps no text past them', async () => {
    expect(new TextCache().limits).to.deep.equal({ eager: 256 << 10, onContinue: 1 << 20, maxTextBytes: 32 << 20 })
    const streamed = new TextCache({ eager: 0, onContinue: 0 })
    expect(streamed.limits).to.deep.equal({ eager: 0, onContinue: 0, maxTextBytes: 32 << 20 })
    const path = writeDated('before\n')
    expect((await readFilePage({ path, cache: streamed, continueUrl })).body).to.equal('before\n')
    swapUnnoticed(path, 'after!\n')
    expect((await readFilePage({ path, cache: streamed, continueUrl })).body).to.equal('after!\n')
    const none = new TextCache({ maxTextBytes: 0 })
    expect((await readFilePage({ path, cache: none, continueUrl })).body).to.equal('after!\n')
    swapUnnoticed(path, 'again!\n')
    expect((await readFilePage({ path, cache: none, continueUrl })).body, 'no room for any text').to.equal('again!\n')
  })

  it('a resource center hands its cache to every read that brings none', async () => {
    const path = writeDated('before\n')
    const name = path.slice(dir.length + 1)
    const files = new TextCache()
    const center = new ResourceCenter({ files })
    center.register(localScheme(dir))
    const read = async (own?: TextCache) => {
      const r = await center.read(`local://${name}`, { whole: false, maxBytes: 1 << 20, ...(own ? { files: own } : {}) })
      return r.kind === 'text' ? r.text : r.kind
    }
    expect(await read()).to.equal('before\n')
    swapUnnoticed(path, 'after!\n')
    expect(await read(), 'remembered by the center').to.equal('before\n')
    expect((await readFilePage({ path, cache: files, continueUrl })).body, 'in the cache it was given').to.equal('before\n')
    expect(await read(new TextCache()), 'a read with a cache of its own').to.equal('after!\n')
    const plain = new ResourceCenter()
    plain.register(localScheme(dir))
    expect(plain.files).to.be.instanceOf(TextCache).and.not.equal(files)
    expect(await plain.read(`local://${name}`, { whole: false, maxBytes: 1 << 20 })).to.deep.include({ kind: 'text', text: 'after!\n' })
  })
})

describe('the range a whole read reports (SPEC §4.2: startLine and endLine)', () => {
  it('ends at the last line found, and knows the total once it reached the end of the file', async () => {
    const center = new ResourceCenter()
    center.register(localScheme(dir))
    writeFileSync(join(dir, 'three.md'), 'one\ntwo\nthree')
    writeFileSync(join(dir, 'ten.md'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''))
    writeFileSync(join(dir, 'empty.md'), '')
    const range = async (url: string) => ((await center.read(url, { whole: true, maxBytes: 1 << 20 })) as any).range
    expect(await range('local://three.md')).to.deep.equal({ startLine: 1, endLine: 3, totalLines: 3 })
    expect(await range('local://three.md:1-100000')).to.deep.equal({ startLine: 1, endLine: 3, totalLines: 3 })
    expect(await range('local://ten.md:2-3')).to.deep.equal({ startLine: 2, endLine: 3 })
    expect(await range('local://ten.md:8-100')).to.deep.equal({ startLine: 8, endLine: 10, totalLines: 10 })
    expect(await range('local://ten.md:8+2')).to.deep.equal({ startLine: 8, endLine: 9 })
    expect(await range('local://empty.md')).to.deep.equal({ startLine: 1, endLine: 0, totalLines: 0 })
    // a folder listing: one line per entry
    const folder = await range('local://')
    expect(folder.endLine).to.equal(folder.totalLines).and.to.be.greaterThan(2)
  })
})
