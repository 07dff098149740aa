// The bot owner's people as the edge knows them (SPEC §22 "Who may steer it"): `trust.owners`, and
// the Koishi user authority where a database keeps users, looked up only when a check needs it
// (never per message). And the start's check that each `trust.tools` name names some tool.
import type { Context } from 'koishi'
import type { OwnerBook } from '../contract/authors'
import type { TrustConfig } from '../config/types'
import { mcpToolName } from '../mcp/names'
import type { Extensions } from '../runtime/extensions'
import { unmatchedTrustTools } from '../trust/tool-names'
import type { Logger } from '../util/logger'

export function ownerBook(ctx: Context, trust: TrustConfig, log: Logger): OwnerBook {
  return {
    owners: new Set(trust.owners),
    async authorityOf(platform, userId) {
      const database = ctx.get('database')
      if (!database) return undefined
      try {
        const user = await database.getUser(platform, userId, ['authority'])
        return typeof user?.authority === 'number' ? user.authority : undefined
      } catch (e: any) {
        log.debug('the authority of %s:%s could not be read: %s', platform, userId, e?.message ?? e)
        return undefined
      }
    },
  }
}

/** Logs each `trust.tools` entry that matches no tool (with its field path), once. */
export function reportTrustTools(trust: TrustConfig, extensions: Extensions, mcpServers: Iterable<string>, log: Logger): void {
  const mcpPrefixes = [...mcpServers].map(id => mcpToolName(id, ''))
  for (const p of unmatchedTrustTools(trust.tools, { registered: extensions.tools.keys(), mcpPrefixes })) log.warn('%s: %s', p.path, p.message)
}
