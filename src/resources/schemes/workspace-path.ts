// workspace:// URL segments ↔ host paths (SPEC §5.3), a pure function for both platforms.
// POSIX: workspace:///srv/share/a.txt → /srv/share/a.txt. Windows: the first segment is the
// drive, `d` or `d:` (written d%3A): workspace:///d/work/a.txt → D:\work\a.txt.
import { posix, win32 } from 'node:path'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'

export type HostPlatform = 'posix' | 'win32'

export function hostPathOf(segments: string[], platform: HostPlatform, url = 'workspace://'): string {
  if (platform === 'posix') return '/' + segments.join('/')
  const [drive, ...rest] = segments
  const m = /^([a-zA-Z]):?$/.exec(drive ?? '')
  if (!m) throw new ResourceError('invalid_url', `${clip(url)}: on Windows the first segment is the drive letter, e.g. workspace:///d/work/report.txt`)
  return `${m[1].toUpperCase()}:\\` + rest.join('\\')
}

/** The root that holds `hostPath` and the segments below it; undefined when none does. */
export function locateInRoots(hostPath: string, roots: string[], platform: HostPlatform): { root: string; rest: string[] } | undefined {
  const p = platform === 'posix' ? posix : win32
  const norm = (s: string) => platform === 'win32' ? p.normalize(s).toLowerCase() : p.normalize(s)
  let best: { root: string; rest: string[] } | undefined
  for (const root of roots) {
    if (!p.isAbsolute(root)) continue
    const rel = p.relative(norm(root), norm(hostPath))
    // only `..` as a whole segment leaves the root: `..notes.txt` is an ordinary name
    if (rel.split(p.sep).includes('..') || p.isAbsolute(rel)) continue
    // Keep the original spelling of the rest of the path (relative() lower-cased it on Windows).
    const depth = rel ? rel.split(p.sep).length : 0
    const parts = p.normalize(hostPath).split(p.sep).filter(Boolean)
    const rest = depth ? parts.slice(parts.length - depth) : []
    if (!best || root.length > best.root.length) best = { root: p.normalize(root), rest }
  }
  return best
}

/** The workspace:// URL of a host path (for listings and snapshots). */
export function workspaceUrlOf(hostPath: string, platform: HostPlatform): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%2F/gi, '/')
  if (platform === 'posix') return 'workspace://' + hostPath.split('/').map(s => s && enc(s)).join('/')
  const m = /^([a-zA-Z]):[\\/]?(.*)$/.exec(hostPath)
  if (!m) throw new Error(`not an absolute Windows path: ${hostPath}`)
  return `workspace:///${m[1].toLowerCase()}/` + m[2].split(/[\\/]/).filter(Boolean).map(enc).join('/')
}
