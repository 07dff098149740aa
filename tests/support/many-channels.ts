// Child process of the descriptor-limit test (run under `prlimit --nofile=N`): one plain group
// message in each of `count` claimed channels, then prints what reached the disk and the log.
import { readdir, readFile } from 'node:fs/promises'
import type { Dirent } from 'node:fs'
import { join } from 'node:path'
import { h as el } from 'koishi'
import { Harness } from './harness'

async function main() {
  const count = Number(process.argv[2] ?? 3000)
  const h = await Harness.start({ profile: { claims: [{ bot: '*', channels: ['group:*'] }] } })
  try {
    // plugin-mock's clients each listen to every message (quadratic in channels), so events go to the bot directly
    const bot = h.app.bots[0] as any
    for (let i = 0; i < count; i++) {
      const content = `hello from channel ${i}`
      bot.receive({
        platform: 'mock', type: 'message', selfId: bot.selfId,
        user: { id: `u${i}`, name: `u${i}` }, guild: { id: `g${i}` }, channel: { id: `g${i}`, type: 0 },
        message: { id: `m${i}`, content, elements: el.parse(content) },
      })
    }
    const deadline = Date.now() + 120_000
    let stored = 0
    const root = join(h.dataDir, 'neko')
    for (;;) {
      await h.settled(120_000)
      stored = await countFacts(root, count)
      if (stored >= count || Date.now() > deadline) break
      await h.idle(200)
    }
    const emfile = h.logs.filter(l => /EMFILE|too many open files/i.test(l.text)).map(l => l.text)
    process.stdout.write(JSON.stringify({ count, stored, emfile: emfile.slice(0, 5), emfileCount: emfile.length, requests: h.server.requests.length }) + '\n')
  } finally {
    await h.stop()
  }
}

/** Facts found in history files: each channel's file must hold its one message. */
async function countFacts(root: string, count: number): Promise<number> {
  const files: string[] = []
  const walk = async (dir: string) => {
    for (const d of await readdir(dir, { withFileTypes: true }).catch((): Dirent[] => [])) {
      const p = join(dir, d.name)
      if (d.isDirectory()) await walk(p)
      else if (d.name.endsWith('.jsonl')) files.push(p)
    }
  }
  await walk(root)
  const seen = new Set<number>()
  for (const f of files) {
    for (const line of (await readFile(f, 'utf8')).split('\n')) {
      const m = /hello from channel (\d+)/.exec(line)
      if (m && Number(m[1]) < count) seen.add(Number(m[1]))
    }
  }
  return seen.size
}

main().catch(e => { console.error(e); process.exit(1) })
