// The folder check (scripts/check-folders.mjs, npm run check:folders): two folders at any depth that
// import each other fail it, a folder's own files counting as that folder, and each pair is printed
// with one import each way. Run on small trees written to a temporary folder inside the repository
// (dependency-cruiser resolves through the repository's tsconfig), and on src/ itself.
import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'

const ROOT = join(__dirname, '..', '..')

function check(root: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['scripts/check-folders.mjs', root], { cwd: ROOT, encoding: 'utf8' })
  return { status: r.status, out: r.stdout + r.stderr }
}

async function tree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
}

describe('the folder check: no two folders at any depth import each other', function () {
  this.timeout(60_000)
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(ROOT, '.folder-check-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('a parent\'s own file importing a child while the child imports another of the parent\'s files is a pair, printed both ways', async () => {
    await tree(dir, {
      'edge/service.ts': "import { x } from './inbound/x'\nexport const s = x\n",
      'edge/routing.ts': 'export const r = 1\n',
      'edge/inbound/x.ts': 'export const x = 1\n',
      'edge/inbound/y.ts': "import { r } from '../routing'\nexport const y = r\n",
    })
    const root = relative(ROOT, dir)
    const { status, out } = check(root)
    expect(status).to.equal(1)
    expect(out).to.include(`${root}/edge <-> ${root}/edge/inbound`)
    expect(out).to.include(`${root}/edge/service.ts → ${root}/edge/inbound/x.ts`)
    expect(out).to.include(`${root}/edge/inbound/y.ts → ${root}/edge/routing.ts`)
  })

  it('sibling subfolders importing each other are a pair; one-way imports are not', async () => {
    await tree(dir, {
      'a/one/x.ts': "import { y } from '../two/y'\nexport const x = y\n",
      'a/two/y.ts': 'export const y = 1\n',
      'a/two/z.ts': "import { w } from '../one/w'\nexport const z = w\n",
      'a/one/w.ts': 'export const w = 1\n',
      'b/top.ts': "import { x } from '../a/one/x'\nexport const t = x\n",
    })
    const root = relative(ROOT, dir)
    const { status, out } = check(root)
    expect(status).to.equal(1)
    expect(out).to.include('1 pair(s)')
    expect(out).to.include(`${root}/a/one <-> ${root}/a/two`)
  })

  it('src/ has no such pair', () => {
    const { status, out } = check('src')
    expect(out).to.include('no two folders of src/ import each other')
    expect(status).to.equal(0)
  })
})
