// skill:// — a skill's folder, read-only (SPEC §24): `skill://<name>/SKILL.md` and the files beside
// it, paged like local:// text. Only allowed skills; nothing outside a skill's folder, however the
// path or a symbolic link tries (file-root.ts's realpath check). No `write`: the resource center
// refuses it as it refuses every read-only scheme, before anything reaches the host.
import { clip } from '../util/clip'
import { ResourceError } from '../resources/errors'
import { readFileTarget } from '../resources/text/file-read'
import { resolveInRoot } from '../resources/file-root'
import { parseFileUrl } from '../resources/file-url'
import { fileBytes } from '../resources/schemes/local'
import type { SchemeHandler } from '../resources/types'
import type { Skill } from './library'

export const SKILL_SCHEME = 'skill'

/** `skills`: the allowed skills by name, read at call time (the list is loaded at start). */
export function skillScheme(skills: () => ReadonlyMap<string, Skill>): SchemeHandler {
  async function locate(url: string) {
    const u = parseFileUrl(url)
    const [name, ...rest] = u.segments
    if (!name || u.rooted) throw new ResourceError('invalid_url', `${clip(url)}: a skill's file is skill://<name>/<path>, e.g. skill://<name>/SKILL.md`)
    const skill = skills().get(name)
    if (!skill) {
      const known = [...skills().keys()]
      throw new ResourceError('not_found', `there is no skill ${clip(name, 80)}; skills: ${known.length ? clip(known.join(', ')) : 'none'}`)
    }
    return { u, path: await resolveInRoot(skill.dir, rest, url, { sync: false }) }
  }
  return {
    scheme: SKILL_SCHEME,
    async read(url, opts) {
      const { u, path } = await locate(url)
      return readFileTarget(u, { path, sync: false }, opts)
    },
    async bytes(url) {
      return fileBytes((await locate(url)).path, url)
    },
  }
}
