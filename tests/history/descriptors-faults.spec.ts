// Thousands of conversations under a small `ulimit -n` (issue 15): histories share a bounded pool
// of open files, so no file operation fails with EMFILE and every fact reaches the disk.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { readdirSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { HistoryStore } from '../../src/history/file-store'
import type { Entry } from '../../src/history/entries'
import { DescriptorBudget, descriptorSlots } from '../../src/util/descriptor-budget'

const fact = (n: number, channel: string): Entry => ({
  type: 'fact', at: 0, fact: { id: String(n), at: 0, bot: 'x:1', channel, direct: false, user: { id: 'u', name: 'U' }, content: `message ${n}` },
})

/** Descriptors of this process open on files inside `dir` (Linux). */
function openIn(dir: string): number {
  let n = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir + '/')) n++
    } catch {}
  }
  return n
}

describe('descriptor budget', () => {
  it('never holds more history files open than its slots, and every append still lands in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-fd-'))
    try {
      const budget = new DescriptorBudget(4)
      const stores = Array.from({ length: 40 }, (_, i) => new HistoryStore(join(dir, `c${i}.jsonl`), console, undefined, budget))
      // what the process really holds open in the folder, sampled while the stores work
      let maxOpen = 0
      let sampling = true
      const sample = () => {
        maxOpen = Math.max(maxOpen, openIn(dir))
        if (sampling) setImmediate(sample)
      }
      sample()
      // three rounds of appends to every store at once, then a load of each (which needs a slot too)
      for (let round = 0; round < 3; round++) await Promise.all(stores.map((s, i) => s.append([fact(round, `g${i}`)])))
      const loaded = await Promise.all(stores.map(s => s.load()))
      sampling = false
      expect(budget.peak).to.be.at.most(4)
      expect(maxOpen).to.be.within(1, 4)
      for (const entries of loaded) expect(entries.map((e: any) => e.fact.id)).to.deep.equal(['0', '1', '2'])
      await Promise.all(stores.map(s => s.flushed()))
      expect(budget.inUse).to.equal(0)
      expect((await readFile(join(dir, 'c7.jsonl'), 'utf8')).trim().split('\n')).to.have.length(3)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('takes a quarter of the soft limit of open files, within 16 and 512', () => {
    const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`
    expect(descriptorSlots(limits('256'))).to.equal(64)
    expect(descriptorSlots(limits('1024'))).to.equal(256)
    expect(descriptorSlots(limits('40'))).to.equal(16)
    expect(descriptorSlots(limits('1048576'))).to.equal(512)
    expect(descriptorSlots(limits('unlimited'))).to.equal(512)
    expect(descriptorSlots('no such line')).to.equal(64)
  })

  it('3,000 conversations under a limit of 256 descriptors: every fact on disk, no EMFILE', async function () {
    this.timeout(180_000)
    const root = join(__dirname, '..', '..')
    const script = join(root, 'tests', 'support', 'many-channels.ts')
    const hooks = ['esbuild-register', 'yml-register', './scripts/register-text.cjs'].flatMap(r => ['-r', r])
    const cmd = `ulimit -n 256 && exec "${process.execPath}" ${hooks.join(' ')} "${script}" 3000`
    const out = await new Promise<string>((resolve, reject) => {
      execFile('sh', ['-c', cmd], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`the child failed: ${err.message}\n${stderr.slice(-2000)}`))
        else resolve(stdout)
      })
    })
    const report = JSON.parse(out.trim().split('\n').pop()!)
    expect(report.emfile, 'EMFILE in the log').to.deep.equal([])
    expect(report.stored).to.equal(3000)
  })
})
