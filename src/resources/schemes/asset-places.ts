// Who may read each asset (SPEC §22): its owners file, and the registrations that wait for the
// message showing them to claim them for its place. A member who only types an asset's URL claims
// nothing: only a registration made for that message is waiting.
import { LRUCache } from 'lru-cache'
import { mayRead } from '../scope'
import type { ReadScope } from '../types'
import { Owners } from './owners'

export class AssetPlaces {
  private owners = new Owners()
  /** registrations without an owner not yet claimed, by id */
  private unclaimed = new LRUCache<string, number>({ max: 10_000 })

  constructor(private readonly itemOf: (id: string) => string) {}

  /**
   * A new asset's places, before anything names it: no reader ever finds it without its owners.
   * `unique`: its id was made for bytes nobody else registers (nothing to merge with).
   */
  create(id: string, owner: string | undefined, unique = false): Promise<void> {
    return this.owners.create(this.itemOf(id), owner ? [owner] : [], unique)
  }

  /** `place` received the asset (a message of its conversation shows it): it may read it from now on. */
  claim(id: string, place: string): Promise<void> {
    return this.owners.add(this.itemOf(id), place)
  }

  /** A registration without an owner: the next message showing it claims it. */
  awaitClaim(id: string): void {
    this.unclaimed.set(id, (this.unclaimed.get(id) ?? 0) + 1)
  }

  /** Claims an asset for `place` only when a registration of it waits for its claim; whether it did. */
  async claimNew(id: string, place: string): Promise<boolean> {
    const n = this.unclaimed.get(id)
    if (!n) return false
    if (n > 1) this.unclaimed.set(id, n - 1)
    else this.unclaimed.delete(id)
    await this.claim(id, place)
    return true
  }

  /** Whether `scope` may read the asset (one stored before owners were recorded: everyone). */
  async readable(id: string, scope: ReadScope | undefined): Promise<boolean> {
    return !scope || mayRead(await this.owners.of(this.itemOf(id)), scope)
  }
}
