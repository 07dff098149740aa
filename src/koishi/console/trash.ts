// The console's trash view (SPEC §22): what write removed or overwrote in a runtime's local://,
// with a restore. Authority 4, as the page's other listeners. A running runtime's trash goes
// through its memory (serialised with its writes, its caches kept current); a runtime that is
// not running is read and restored from its home's files.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { memoryPart } from '../../memory/part'
import { restoreAtHome, trashAtHome } from '../../memory/trash-at-home'
import { trashView, type TrashView } from '../../console-data/trash'
import { placeOf } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/trash'(profile: string, bot: string): Promise<TrashView>
    'kotodama/trash-restore'(profile: string, bot: string, id: string): Promise<{ url: string }>
  }
}

const AUTHORITY = 4

export function registerTrash(ctx: Context) {
  const memoryOf = async (profile: string, bot: string) => {
    const p = await placeOf(ctx, profile, bot)
    return { home: p.home, memory: p.runtime?.part(memoryPart)?.memory }
  }
  ctx.console.addListener('kotodama/trash', async (profile, bot) => {
    const { home, memory } = await memoryOf(profile, bot)
    return trashView(await (memory ? memory.trash() : trashAtHome(home, ctx.kotodama.log)))
  }, { authority: AUTHORITY })

  ctx.console.addListener('kotodama/trash-restore', async (profile, bot, id) => {
    const { home, memory } = await memoryOf(profile, bot)
    return memory ? memory.restore(id) : restoreAtHome(home, id, ctx.kotodama.log)
  }, { authority: AUTHORITY })
}
