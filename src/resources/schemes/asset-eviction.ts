// What eviction does to an asset's files, and what a read of an evicted or refused asset says
// (SPEC §22: "a later read says so"; distinct from not_found).
import { rm } from 'node:fs/promises'
import { atomicWrite } from '../../util/atomic-write'

interface Files {
  sidecar(id: string): Promise<{ fetchedAt?: string }>
  sidecarPath(id: string): string
  bytesPath(id: string): string
}

/** The sidecar says evicted first: a crash between the two leaves bytes the next start counts, never a sidecar promising bytes. */
export async function evictFiles(store: Files, id: string): Promise<void> {
  const sidecar = await store.sidecar(id).catch((): undefined => undefined)
  if (sidecar) {
    const { fetchedAt: _, ...rest } = sidecar
    await atomicWrite(store.sidecarPath(id), JSON.stringify({ ...rest, evictedAt: new Date().toISOString() }, null, 2))
  }
  await rm(store.bytesPath(id), { force: true })
}

export const evictedMessage = (id: string, at: string) => `asset://${id} was evicted on ${at.slice(0, 10)}: the bot's media store was full `
  + 'and it had not been shown lately (attachment.maxAssetBytes, attachment.keepDays)'

export const NOT_KEPT = 'the bot\'s media store was full of media shown lately (attachment.maxAssetBytes)'
export const notKeptMessage = (id: string) => `asset://${id} was not kept: ${NOT_KEPT}`
