// Koishi database services for the storage tests: minato's memory driver, real SQLite in a
// temporary folder, and a real MariaDB server the test starts itself (support/mariadb.ts).
import { App } from 'koishi'
import memory from '@koishijs/plugin-database-memory'
import mysql from '@koishijs/plugin-database-mysql'
import { join } from 'node:path'

export type DatabasePlugin = { plugin: any; config: any }

export const memoryDatabase = (): DatabasePlugin => ({ plugin: memory, config: {} })

/**
 * minato 3's SQLite driver (`@minatojs/driver-sqlite` ≥ 4; `@koishijs/plugin-database-sqlite`
 * 3.9, the newest published, is built for minato 2 and does not load in Koishi 4.18). A test
 * environment may point KOTODAMA_SQLITE_DRIVER at another copy. Returns why not, when absent.
 */
export function sqliteDatabase(path: string): DatabasePlugin | string {
  const candidates = [process.env.KOTODAMA_SQLITE_DRIVER, '@minatojs/driver-sqlite'].filter(Boolean)
  const found: string[] = []
  for (const id of candidates) {
    try {
      const pkg = require(join(id, 'package.json'))
      found.push(`${pkg.name} ${pkg.version}`)
      if (!pkg.peerDependencies?.minato) continue
      return { plugin: require(id).default, config: { path } }
    } catch {}
  }
  return `minato 3's SQLite driver (@minatojs/driver-sqlite >= 4) is not installed (found: ${found.join(', ') || 'none'}); run npm ci`
}

/**
 * MySQL/MariaDB through Koishi's plugin. Its driver (@minatojs/driver-mysql 3.3, the newest for
 * minato 3 this registry has) predates minato 3.7's index API: with no index declared, an empty
 * list of existing indexes is all minato asks of it.
 */
export function mysqlDatabase(o: { port: number; database: string }): DatabasePlugin {
  const driver = require('@minatojs/driver-mysql').MySQLDriver
  driver.prototype.getIndexes ??= async (): Promise<never[]> => []
  return { plugin: mysql, config: { host: '127.0.0.1', port: o.port, user: 'root', password: '', database: o.database } }
}

/** A bare Koishi app with one database service, started. */
export async function databaseApp(db: DatabasePlugin): Promise<App> {
  const app = new App()
  app.plugin(db.plugin, db.config)
  await app.start()
  return app
}
