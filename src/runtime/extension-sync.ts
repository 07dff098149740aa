// What other plugins registered, made for one runtime (SPEC §9): their schemes in its resource
// center and the wake engine its profile names, made again whenever the registry changed.
import type { ResourceCenter } from '../resources/center'
import type { RuntimeView } from '../tools/types'
import { standardWakeEngine } from '../attention/standard-wake'
import type { WakeEngine } from '../attention/wake-engine'
import type { Extensions } from './extensions'

export class ExtensionSync {
  private schemeVersion = -1
  private disposers: (() => void)[] = []
  private wake?: { version: number; engine: WakeEngine }

  constructor(private ext: Extensions, private view: RuntimeView, private resources: ResourceCenter, private sentByBot: (id: string) => boolean) {}

  /** Instantiates the schemes other plugins registered; reruns when the registry changed. */
  schemes(): void {
    if (this.schemeVersion === this.ext.version) return
    this.schemeVersion = this.ext.version
    this.disposers.splice(0).forEach(d => d())
    for (const factory of [...this.ext.schemes.values(), ...this.ext.anonymousSchemes]) {
      try {
        const handler = factory(this.view)
        if (handler) this.disposers.push(this.resources.register(handler))
      } catch (e: any) {
        this.view.logger.error('profile %s: a scheme handler could not be added: %s', this.view.profile.id, e?.message ?? e)
      }
    }
  }

  engine(): WakeEngine {
    if (this.wake?.version === this.ext.version) return this.wake.engine
    const { profile, bot, logger } = this.view
    const name = profile.wake.engine
    const factory = this.ext.wakeEngines.get(name) ?? standardWakeEngine
    // the built-in standard engine is always there, also while the plugin is being disposed
    if (!this.ext.wakeEngines.has(name) && name !== 'standard') logger.warn('profile %s: wake engine "%s" is not registered; using standard', profile.id, name)
    const engine = factory({ bot, config: profile.wake, sentByBot: this.sentByBot })
    this.wake = { version: this.ext.version, engine }
    return engine
  }

  dispose(): void {
    this.disposers.splice(0).forEach(d => d())
  }
}
