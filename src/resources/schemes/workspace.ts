// workspace:// — native host files under the profile's workspace.roots, read-only. A root may be
// a network mount: every fs call here is async, so a slow mount never stalls the process.
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget } from '../text/file-read'
import { resolveInRoot } from '../file-root'
import { parseFileUrl } from '../file-url'
import type { SchemeHandler } from '../types'
import { fileBytes } from './local'
import { hostPathOf, locateInRoots, type HostPlatform } from './workspace-path'

export function workspaceScheme(roots: string[], platform: HostPlatform = process.platform === 'win32' ? 'win32' : 'posix'): SchemeHandler {
  async function locate(url: string) {
    const u = parseFileUrl(url)
    if (!u.rooted) throw new ResourceError('invalid_url', `${clip(url)}: a workspace URL holds an absolute host path, e.g. workspace:///srv/share/report.txt`)
    if (!roots.length) throw new ResourceError('forbidden', 'no workspace roots are configured for this profile')
    const hostPath = hostPathOf(u.segments, platform, url)
    const hit = locateInRoots(hostPath, roots, platform)
    if (!hit) throw new ResourceError('forbidden', `${clip(url)} is outside the workspace roots (${clip(roots.join(', '))})`)
    return { u, path: await resolveInRoot(hit.root, hit.rest, url, { sync: false }) }
  }
  return {
    scheme: 'workspace',
    async read(url, opts) {
      const { u, path } = await locate(url)
      return readFileTarget(u, { path, sync: false }, opts)
    },
    async bytes(url) {
      const { path } = await locate(url)
      return fileBytes(path, url)
    },
  }
}
