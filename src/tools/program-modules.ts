// Where a program's `import()` gets a module's text (SPEC §24): skill:// only, read through the
// resource center like any read, so a skill's containment and `skills.allow` hold for imports too.
import type { ResourceCenter } from '../resources/center'
import { ResourceError } from '../resources/errors'
import { schemeOf } from '../resources/file-url'
import type { TurnState } from '../contract/tool'
import { turnScope } from '../contract/turn-scope'

/** A module's text for one turn's program; thrown errors carry the name the program sees. */
export type TurnModules = (url: string, signal: AbortSignal, turn: TurnState) => Promise<string>

const named = (name: string, message: string) => Object.assign(new Error(message), { name })

export function skillModules(resources: ResourceCenter): TurnModules {
  return async (url, signal, turn) => {
    if (schemeOf(url) !== 'skill') throw named('ModuleNotFound', `only skill:// modules can be imported, not ${url.slice(0, 200)}`)
    try {
      const { data } = await resources.bytes(url, signal, turnScope(turn))
      return data.toString('utf8')
    } catch (e) {
      if (!(e instanceof ResourceError)) throw e
      throw named(e.code === 'not_found' ? 'ModuleNotFound' : 'ImportError', e.message)
    }
  }
}
