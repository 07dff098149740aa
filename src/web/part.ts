// Web search as a part (SPEC §24 "The web"): with `web.search` set, the web:// scheme and one stable
// protocol line; off, nothing (the prompt does not grow). Needs no `http.enabled`: the provider is
// the owner's setting, reached even on loopback, like models[].baseURL.
import PROTOCOL from './protocol.md'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { PageCache } from './cache'
import { webSection, type WebConfig } from './config'
import { webScheme } from './scheme'
import { brave } from './brave'
import { searxng } from './searxng'
import { tavily } from './tavily'

const PROVIDERS = { searxng, brave, tavily }

export const webPart: PartPlugin<WebConfig, RuntimePart> = {
  name: 'web',
  section: webSection,
  create(scope) {
    const { config } = scope
    if (!config.search) return undefined
    const cache = new PageCache(scope.clock)
    const scheme = webScheme({ config, provider: PROVIDERS[config.search], cache, calls: scope.calls, clock: scope.clock, logger: scope.logger,
      archive: scope.view })
    return {
      name: 'web',
      schemes: () => [scheme],
      prompt: () => ({ protocol: PROTOCOL }),
      stop: async () => cache.clear(),
    }
  },
}
