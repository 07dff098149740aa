// The runtimes that have a home, whether they run or not: the console page lists them after a
// restart, before their first message. Found in storage, never by starting a runtime: the homes'
// folders (`<dataDir>/<profile>/<platform>/<selfId>/`, SPEC §2) and, on the database, the
// (profile, bot) pairs of the history table. Only pairs a configured profile still claims count;
// a profile that did not start (`unchecked`: its claims may be what is wrong) counts with every home.
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { claimsBot } from '../claims/match'
import type { ProfileConfig } from '../config/types'
import { fromSafeName, safeName } from '../util/safe-name'
import type { HistoryTable } from '../history/table'
import { runtimeHome } from './runtime'
import type { Logger } from '../util/logger'
import { runtimeKey } from '../claims/bot-id'

export interface StoredRuntime {
  profile: ProfileConfig
  /** `platform:selfId` */
  bot: string
  /** its home folder (it may not exist when only the database holds its history) */
  home: string
}

export interface StoredRuntimesOptions {
  dataDir: string
  profiles: ProfileConfig[]
  /** profiles that failed their config check: listed whatever they claim */
  unchecked?: ProfileConfig[]
  table?: HistoryTable
  logger: Logger
}

export async function storedRuntimes(o: StoredRuntimesOptions): Promise<StoredRuntime[]> {
  const found = new Map<string, StoredRuntime>()
  const unchecked = new Set(o.unchecked)
  const add = (profile: ProfileConfig | undefined, bot: string) => {
    if (!profile || !(unchecked.has(profile) || claimsBot(profile.claims, bot))) return
    found.set(runtimeKey(profile.id, bot), { profile, bot, home: runtimeHome(o.dataDir, profile.id, bot) })
  }
  const profiles = [...o.profiles, ...unchecked]
  for (const profile of profiles) {
    const root = join(o.dataDir, safeName(profile.id))
    for (const platform of await folders(root)) {
      for (const self of await folders(join(root, platform))) add(profile, `${fromSafeName(platform)}:${fromSafeName(self)}`)
    }
  }
  if (o.table) {
    // a database that is down hides its runtimes from the list, not the homes on disk
    const rows = await o.table.runtimes().catch((e): { profile: string; bot: string }[] => {
      o.logger.warn('the runtimes of table %s could not be listed: %s', o.table.name, e?.message ?? e)
      return []
    })
    for (const r of rows) add(profiles.find(p => p.id === r.profile), r.bot)
  }
  return [...found.values()]
}

async function folders(path: string): Promise<string[]> {
  let found: Dirent[]
  try {
    found = await readdir(path, { withFileTypes: true })
  } catch {
    return []
  }
  return found.filter(d => d.isDirectory()).map(d => d.name).sort()
}
