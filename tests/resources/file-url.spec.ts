import { expect } from 'chai'
import { ResourceError, type ResourceErrorCode } from '../../src/resources/errors'
import { composeSelectors, formatFileUrl, parseFileUrl, splitQuestion, withOffset, type FileUrl, type LineRange } from '../../src/resources/file-url'
import { clip, quote } from '../../src/util/clip'

type Parsed = Partial<Omit<FileUrl, 'raw'>>

const valid: [string, Parsed][] = [
  ['local://', { scheme: 'local', segments: [], selectors: [] }],
  ['local://notes/a.txt', { scheme: 'local', segments: ['notes', 'a.txt'], selectors: [] }],
  ['local://notes/', { segments: ['notes'] }],
  ['LOCAL://a.txt', { scheme: 'local', segments: ['a.txt'] }],
  ['workspace:///srv/x', { scheme: 'workspace', segments: ['srv', 'x'], rooted: true }],
  ['workspace:///', { segments: [], rooted: true }],
  ['workspace:///d%3A/work/report.txt', { segments: ['d:', 'work', 'report.txt'] }],
  ['local://a%25b%20c.txt', { segments: ['a%b c.txt'] }],
  ['local://日本/メモ.txt', { segments: ['日本', 'メモ.txt'] }],
  ['local://%E6%97%A5.txt', { segments: ['日.txt'] }],
  ['local://C#.txt', { segments: ['C#.txt'] }],
  ['local://...', { segments: ['...'] }],
  ['local://.env', { segments: ['.env'] }],
  ['my-ext+v1.2://a', { scheme: 'my-ext+v1.2', segments: ['a'] }],
  ['local://a.txt:5', { selectors: [{ kind: 'from', start: 5 }] }],
  ['local://a.txt:10-20', { selectors: [{ kind: 'range', start: 10, end: 20 }] }],
  ['local://a.txt:7-7', { selectors: [{ kind: 'range', start: 7, end: 7 }] }],
  ['local://a.txt:3+4', { selectors: [{ kind: 'count', start: 3, count: 4 }] }],
  ['local://a.txt:010', { selectors: [{ kind: 'from', start: 10 }] }],
  ['local://a.txt:10-20:2+3', { selectors: [{ kind: 'range', start: 10, end: 20 }, { kind: 'count', start: 2, count: 3 }] }],
  ['local://:3', { segments: [], selectors: [{ kind: 'from', start: 3 }] }],
  ['local://a.txt?view=meta', { view: 'meta' }],
  ['local://a.txt?view=original', { view: 'original' }],
  ['local://a.txt:2?offset=120', { selectors: [{ kind: 'from', start: 2 }], offset: 120 }],
  ['local://a.txt?offset=0', { offset: 0 }],
  ['local://a.txt?view=meta&offset=7', { view: 'meta', offset: 7 }],
  ['local://a.txt?', { segments: ['a.txt'], selectors: [] }],
  ['local://a.txt?v%69ew=meta', { view: 'meta' }],
]

const invalid: [string, ResourceErrorCode, string][] = [
  ['local:/a.txt', 'invalid_url', 'local:/a.txt'],
  ['a.txt', 'invalid_url', 'a.txt'],
  ['1local://a', 'invalid_url', '1local://a'],
  ['lo cal://a', 'invalid_url', 'lo cal://a'],
  ['local://a%2', 'invalid_url', 'a%2'],
  ['local://a%zz.txt', 'invalid_url', 'a%zz.txt'],
  ['local://%C3%28', 'invalid_url', '%C3%28'],
  ['local://a/../b', 'invalid_url', '..'],
  ['local://./b', 'invalid_url', '"."'],
  ['local://a/%2E%2E/b', 'invalid_url', '%2E%2E'],
  ['local://a/%2e/b', 'invalid_url', '%2e'],
  ['local://a%2Fb', 'invalid_url', 'a%2Fb'],
  ['local://a\\b', 'invalid_url', 'backslash'],
  ['local://a%5Cb', 'invalid_url', 'a%5Cb'],
  ['local://a\0b', 'invalid_url', 'NUL'],
  ['local://a%00b', 'invalid_url', 'a%00b'],
  ['local://a//b', 'invalid_url', 'empty path segment'],
  ['workspace:////srv', 'invalid_url', 'empty path segment'],
  ['local://a.txt:0', 'invalid_selector', '":0"'],
  ['local://a.txt:', 'invalid_selector', '":"'],
  ['local://a.txt::3', 'invalid_selector', '":"'],
  ['local://a.txt:5-3', 'invalid_selector', '":5-3"'],
  ['local://a.txt:3+0', 'invalid_selector', '":3+0"'],
  ['local://a.txt:0-3', 'invalid_selector', '":0-3"'],
  ['local://a.txt:-3', 'invalid_selector', '":-3"'],
  ['local://a.txt:+3', 'invalid_selector', '":+3"'],
  ['local://a.txt:3-', 'invalid_selector', '":3-"'],
  ['local://a.txt: 3', 'invalid_selector', '": 3"'],
  ['local://a.txt:1.5', 'invalid_selector', '":1.5"'],
  ['local://a.txt:1e3', 'invalid_selector', '":1e3"'],
  ['local://a.txt:99999999999999999999', 'invalid_selector', '99999999999999999999'],
  ['workspace:///d:/work/x.txt', 'invalid_selector', '%3A'],
  ['local://a:b.txt', 'invalid_selector', '":b.txt"'],
  ['local://a.txt?view=raw', 'unsupported_view', '"raw"'],
  ['local://a.txt?view', 'unsupported_view', 'view'],
  ['local://a.txt?offset=-1', 'invalid_url', '"-1"'],
  ['local://a.txt?offset=1.5', 'invalid_url', '"1.5"'],
  ['local://a.txt?offset=', 'invalid_url', 'offset ""'],
  ['local://a.txt?offset=abc', 'invalid_url', '"abc"'],
  ['local://a.txt?foo=1', 'invalid_url', '"foo"'],
  ['local://a.txt?question=hi', 'invalid_url', '"question"'],
  ['local://a.txt?view=meta&view=meta', 'invalid_url', 'repeated'],
  ['local://a.txt?offset=1&offset=2', 'invalid_url', 'repeated'],
]

function catchError(run: () => unknown): ResourceError {
  try {
    run()
  } catch (error) {
    expect(error).to.be.instanceOf(ResourceError)
    return error as ResourceError
  }
  expect.fail('expected a ResourceError')
}

describe('parseFileUrl', () => {
  for (const [url, expected] of valid) {
    it(`parses ${url}`, () => {
      const parsed = parseFileUrl(url)
      expect(parsed).to.include({ raw: url })
      for (const [key, value] of Object.entries(expected)) expect(parsed[key as keyof FileUrl], key).to.deep.equal(value)
    })
  }

  for (const [url, code, shown] of invalid) {
    it(`rejects ${JSON.stringify(url)} with ${code}`, () => {
      const error = catchError(() => parseFileUrl(url))
      expect(error.code).to.equal(code)
      expect(error.name).to.equal('ResourceError')
      expect(error.message).to.include(shown)
    })
  }
})

/** What a URL names, without its spelling (offset 0 = no offset). */
function meaning(u: FileUrl): object {
  return JSON.parse(JSON.stringify({ ...u, raw: undefined, offset: u.offset || undefined }))
}

describe('formatFileUrl', () => {
  const roundTrips: [string, string][] = [
    ['local://', 'local://'],
    ['LOCAL://notes/a.txt', 'local://notes/a.txt'],
    ['local://notes/', 'local://notes'],
    ['workspace:///srv/x', 'workspace:///srv/x'],
    ['workspace:///d%3A/work/r.txt', 'workspace:///d%3A/work/r.txt'],
    ['local://a%25b%3F%23.txt', 'local://a%25b%3F#.txt'],
    ['local://%E6%97%A5%20x.txt', 'local://日 x.txt'],
    ['local://a%0Ab', 'local://a%0Ab'],
    ['local://a.txt:010-20:2+3', 'local://a.txt:10-20:2+3'],
    ['local://a.txt?offset=5&view=meta', 'local://a.txt?view=meta&offset=5'],
    ['local://a.txt?offset=0', 'local://a.txt'],
    ['local://a.txt?', 'local://a.txt'],
  ]
  for (const [input, canonical] of roundTrips) {
    it(`formats ${input} as ${canonical}`, () => {
      const parsed = parseFileUrl(input)
      expect(formatFileUrl(parsed)).to.equal(canonical)
      expect(meaning(parseFileUrl(canonical))).to.deep.equal(meaning(parsed))
    })
  }

  it('withOffset keeps selectors and view and replaces the offset', () => {
    const url = parseFileUrl('workspace:///srv/a%3Ab.log:10-20:2?view=original&offset=9')
    expect(withOffset(url, 1234)).to.equal('workspace:///srv/a%3Ab.log:10-20:2?view=original&offset=1234')
    expect(withOffset(url, 0)).to.equal('workspace:///srv/a%3Ab.log:10-20:2?view=original')
  })
})

describe('composeSelectors', () => {
  const cases: [string, LineRange | undefined][] = [
    ['', undefined],
    [':5', { start: 5 }],
    [':10-20', { start: 10, end: 20 }],
    [':3+4', { start: 3, end: 6 }],
    [':10-20:2+3', { start: 11, end: 13 }],
    [':10-20:5', { start: 14, end: 20 }],
    [':10:5', { start: 14 }],
    [':10:5-6', { start: 14, end: 15 }],
    [':10-20:5-100', { start: 14, end: 20 }],
    [':10-20:2+100', { start: 11, end: 20 }],
    [':10-20:11', { start: 20, end: 20 }],
    [':10-20:12', { start: 21, end: 20 }],
    [':10-20:30-40', { start: 39, end: 38 }],
    [':10-20:30:1', { start: 39, end: 38 }],
    [':2:2:2', { start: 4 }],
  ]
  for (const [selectors, expected] of cases) {
    it(`composes "${selectors}"`, () => {
      expect(composeSelectors(parseFileUrl(`local://a.txt${selectors}`).selectors)).to.deep.equal(expected)
    })
  }
})

describe('splitQuestion', () => {
  const cases: [string, string, string | undefined][] = [
    ['asset://x', 'asset://x', undefined],
    ['asset://x?view=meta', 'asset://x?view=meta', undefined],
    ['asset://x?question=what color?', 'asset://x', 'what color?'],
    ['asset://x?question=what%20color%3F', 'asset://x', 'what color?'],
    ['asset://x?question=%E8%89%B2%E3%81%AF%EF%BC%9F', 'asset://x', '色は？'],
    ['asset://x?question=100% sure?', 'asset://x', '100% sure?'],
    ['asset://x?question=a+b', 'asset://x', 'a+b'],
    ['asset://x?question=a=b', 'asset://x', 'a=b'],
    ['asset://x?a=1&question=x&b=2', 'asset://x?a=1&b=2', 'x'],
    ['asset://x?view=meta&question=is it red?', 'asset://x?view=meta', 'is it red?'],
    ['asset://x?question=is it red?&view=meta', 'asset://x?view=meta', 'is it red?'],
    ['asset://x?question=', 'asset://x', ''],
    ['asset://x?question', 'asset://x', ''],
    ['asset://x?questions=1', 'asset://x?questions=1', undefined],
    ['asset://x?q=question=1', 'asset://x?q=question=1', undefined],
    ['https://example.com:8443/a.png?size=2&question=cat?', 'https://example.com:8443/a.png?size=2', 'cat?'],
    ['local://a.png:3?question=x', 'local://a.png:3', 'x'],
  ]
  for (const [input, url, question] of cases) {
    it(`splits ${input}`, () => {
      const result = splitQuestion(input)
      expect(result.url).to.equal(url)
      expect(result.question).to.equal(question)
      if (question === undefined) expect(result).not.to.have.property('question')
    })
  }

  it('refuses two question params', () => {
    const error = catchError(() => splitQuestion('asset://x?question=a&question=b'))
    expect(error.code).to.equal('invalid_url')
    expect(error.message).to.include('question')
  })

  it('leaves a URL that parseFileUrl accepts', () => {
    const { url } = splitQuestion('artifact://read/x.png?view=meta&question=why?')
    expect(parseFileUrl(url)).to.include({ scheme: 'artifact', view: 'meta' })
  })
})

describe('errors quote at most 200 units of what they name (SPEC §10)', () => {
  const LONG = 'b'.repeat(100_000)

  it('clip and quote keep 200 units, never half a surrogate pair, then …', () => {
    expect(clip('short')).to.equal('short')
    expect(clip('x'.repeat(200))).to.equal('x'.repeat(200))
    expect(clip('x'.repeat(201))).to.equal('x'.repeat(200) + '…')
    expect(clip('x'.repeat(199) + '😀' + 'y')).to.equal('x'.repeat(199) + '…')
    expect(clip('x'.repeat(198) + '😀' + 'y')).to.equal('x'.repeat(198) + '😀…')
    expect(clip('abcdef', 3)).to.equal('abc…')
    expect(quote('a"b')).to.equal('"a\\"b"')
    expect(quote(LONG)).to.equal(`"${'b'.repeat(200)}…"`)
    // escapes count: 200 control characters do not become 1,200 units
    const controls = quote('\u0001'.repeat(300))
    expect(controls.length).to.be.at.most(203)
    expect(controls).to.match(/^"(\\u0001)+…"$/)
    expect(quote('x'.repeat(199) + '😀')).to.equal(`"${'x'.repeat(199)}…"`)
  })
  const urls: [string, ResourceErrorCode][] = [
    [`local:/${LONG}`, 'invalid_url'],
    [`local://${LONG}%2`, 'invalid_url'],
    [`local://${LONG}%C3%28`, 'invalid_url'],
    [`local://a/${'%2E'.repeat(2)}/${LONG}`, 'invalid_url'],
    [`local://${LONG}%2Fx`, 'invalid_url'],
    [`local://${LONG}%5Cx`, 'invalid_url'],
    [`local://${LONG}%00`, 'invalid_url'],
    [`local://${LONG}//x`, 'invalid_url'],
    [`local://a.txt:${LONG}`, 'invalid_selector'],
    [`local://a.txt:9${'9'.repeat(100_000)}`, 'invalid_selector'],
    [`local://a.txt:5-3${':1'.repeat(50_000)}`, 'invalid_selector'],
    [`local://a.txt?view=${LONG}`, 'unsupported_view'],
    [`local://a.txt?offset=${LONG}`, 'invalid_url'],
    [`local://a.txt?${LONG}=1`, 'invalid_url'],
    [`local://a.txt?view=meta&view=meta&${LONG}`, 'invalid_url'],
    [`local://a.txt?${'\u0001'.repeat(100_000)}`, 'invalid_url'],
  ]
  for (const [url, code] of urls) {
    it(`${code}: ${url.slice(0, 30)}… (${url.length} units)`, () => {
      const error = catchError(() => parseFileUrl(url))
      expect(error.code).to.equal(code)
      expect(error.message.length, error.message.slice(0, 300)).to.be.below(1000)
      expect(error.message).to.include('…')
    })
  }

  it('splitQuestion: two question params in a long URL', () => {
    const error = catchError(() => splitQuestion(`asset://x?question=a&question=${LONG}`))
    expect(error.message.length).to.be.below(1000)
    expect(error.message).to.include('…')
  })
})
