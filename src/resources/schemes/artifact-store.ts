// Immutable, content-addressed snapshots written by the runtime (SPEC §5.3): archived tool
// results and snapshots of media. artifacts/<namespace>/<name> plus a <name>.json sidecar, and
// for archived JSON a readable view beside it (<name>.view).
import { createHash, type Hash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../../util/atomic-write'
import { quote } from '../../util/clip'
import { fsError } from '../fs-error'
import { extensionOf } from '../media-type'
import { mayRead } from '../scope'
import type { ReadScope } from '../types'
import { Owners } from './owners'

export interface ArtifactSidecar {
  mediaType: string
  byteLength: number
  sha256: string
  tool?: string
  callId?: string
  createdAt: string
  width?: number
  height?: number
  /** true when a readable view (<name>.view) exists beside the original */
  readableView?: boolean
}

export interface ArtifactWrite {
  namespace: string
  data: Buffer | string
  mediaType: string
  tool?: string
  callId?: string
  width?: number
  height?: number
  /** The text shown by default (archived JSON: the two-space display text). */
  readable?: string
  /** sha256 (hex) of `data` when the caller already has it, so it is not computed again */
  sha256?: string
  /** the place that made it (resources/scope.ts): only it reads it; absent, everyone (SPEC §22) */
  owner?: string
}

const NAMESPACE = /^[a-zA-Z0-9_-]{1,64}$/

export class ArtifactStore {
  /** who may read each artifact (SPEC §22) */
  readonly owners = new Owners()

  constructor(readonly dir: string) {}

  /**
   * Writes once per content; returns the artifact:// URL. The name is the sha256 of the data
   * (then, for archives, its length and the readable view), so the same original with another
   * view gets another name.
   */
  async write(w: ArtifactWrite): Promise<string> {
    if (!NAMESPACE.test(w.namespace)) throw new Error(`artifact namespace ${quote(w.namespace)} must be 1-64 of [A-Za-z0-9_-]`)
    const data = typeof w.data === 'string' ? Buffer.from(w.data, 'utf8') : w.data
    // Encoded once: hashed and written from the same bytes.
    const view = w.readable !== undefined ? Buffer.from(w.readable, 'utf8') : undefined
    // Each byte is hashed once: the data's own hash (the sidecar's) is a copy taken midway.
    let hash: Hash | undefined
    const sha256 = w.sha256 ?? (hash = createHash('sha256').update(data)).copy().digest('hex')
    // The data's length stands between data and view, so no split of the same bytes collides.
    const full = view ? (hash ?? createHash('sha256').update(data)).update(`\u0000view:${data.length}\u0000`).update(view).digest('hex') : sha256
    const name = full.slice(0, 20) + extensionOf(w.mediaType)
    const path = this.path(w.namespace, name)
    const exists = await stat(path + '.json').then(() => true, () => false)
    // the same bytes made in another conversation: both may read them
    if (exists && w.owner) await this.owners.add(path, w.owner)
    if (!exists) {
      if (w.owner) await this.owners.create(path, [w.owner])
      await Promise.all([atomicWrite(path, data), view && atomicWrite(path + '.view', view)])
      const sidecar: ArtifactSidecar = {
        mediaType: w.mediaType, byteLength: data.length, sha256,
        createdAt: new Date().toISOString(),
        ...(w.tool ? { tool: w.tool } : {}), ...(w.callId ? { callId: w.callId } : {}),
        ...(w.width ? { width: w.width, height: w.height } : {}),
        ...(view ? { readableView: true } : {}),
      }
      // The sidecar goes last: its presence means the artifact is complete.
      await atomicWrite(path + '.json', JSON.stringify(sidecar, null, 2))
    }
    return `artifact://${w.namespace}/${name}`
  }

  /** Whether `scope` may read the artifact (an artifact of before owners were recorded: everyone). */
  async readable(namespace: string, name: string, scope: ReadScope | undefined): Promise<boolean> {
    return !scope || mayRead(await this.owners.of(this.path(namespace, name)), scope)
  }

  path(namespace: string, name: string): string {
    return join(this.dir, namespace, name)
  }

  /** The sidecar; errors name `url` (the URL read, by default the artifact's own). */
  async sidecar(namespace: string, name: string, url = `artifact://${namespace}/${name}`): Promise<ArtifactSidecar> {
    try {
      return JSON.parse(await readFile(this.path(namespace, name) + '.json', 'utf8'))
    } catch (e) {
      throw fsError(e, url)
    }
  }
}
