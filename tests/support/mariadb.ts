// A MariaDB (or MySQL) server of the test's own: a fresh data folder in a temporary directory, a
// free port on 127.0.0.1, its socket in that folder, no system service; stopped and removed after.
// Absent binaries give a reason to skip (.ci/run installs mariadb-server where it can).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const realSetTimeout = globalThis.setTimeout

export interface MariaDB {
  port: number
  /** databases created at start */
  databases: string[]
  stop(): Promise<void>
}

function which(names: string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/usr/bin']
  for (const name of names) for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name)
  return undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as any
      s.close(() => resolve(port))
    })
  })
}

function accepts(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const c = connect(port, '127.0.0.1')
    c.once('connect', () => { c.destroy(); resolve(true) })
    c.once('error', () => resolve(false))
  })
}

/** Starts a server, or returns why it cannot. */
export async function startMariaDB(databases: string[]): Promise<MariaDB | string> {
  const server = which(['mariadbd', 'mysqld'])
  const install = which(['mariadb-install-db', 'mysql_install_db'])
  if (!server || !install) return 'MariaDB is not installed (no mariadbd/mysqld or mariadb-install-db); .ci/run installs mariadb-server'
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-mariadb-'))
  const data = join(dir, 'data')
  const root = process.getuid?.() === 0 ? ['--user=root'] : []
  try {
    await promisify(execFile)(install, ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...root], { timeout: 60_000 })
  } catch (e: any) {
    await rm(dir, { recursive: true, force: true })
    return `mariadb-install-db failed: ${String(e?.stderr || e?.message).slice(0, 300)}`
  }
  const init = join(dir, 'init.sql')
  await writeFile(init, databases.map(d => `CREATE DATABASE IF NOT EXISTS \`${d}\`;`).join('\n') + '\n')
  const port = await freePort()
  const child: ChildProcess = spawn(server, [
    '--no-defaults', `--datadir=${data}`, `--socket=${join(dir, 'sock')}`, `--port=${port}`, '--bind-address=127.0.0.1',
    '--skip-grant-tables', `--init-file=${init}`, `--pid-file=${join(dir, 'pid')}`, `--log-error=${join(dir, 'error.log')}`,
    '--skip-log-bin', '--innodb-buffer-pool-size=16M', '--max-allowed-packet=64M', ...root,
  ], { stdio: 'ignore' })
  let exited = false
  const exit = new Promise<void>(resolve => child.once('exit', () => { exited = true; resolve() }))
  const stop = async () => {
    if (!exited) child.kill('SIGTERM')
    await exit
    await rm(dir, { recursive: true, force: true })
  }
  // ready when it accepts connections (the init file runs before that)
  const deadline = Date.now() + 60_000
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      await stop()
      return `mariadbd did not start (${exited ? 'it exited' : 'no connection within 60 s'})`
    }
    await new Promise(r => realSetTimeout(r, 50))
  }
  return { port, databases, stop }
}
