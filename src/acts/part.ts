// Acts as a part (SPEC §23): `<react>`, `<poke>`, `<unsend>` served as send_message elements when
// the profile's `acts` turns them on, counted together against `acts.perTurn`; the protocol's line
// about them (stable: it never changes with state, SPEC §16).
import PROTOCOL from './protocol.md'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { OutboundServer } from '../tools/outbound'
import { actsSection, type ActsConfig } from './config'
import { pokeServer } from './poke'
import { reactServer } from './react'
import { POKE_TAG, REACT_TAG, UNSEND_TAG } from './tags'
import { unsendServer } from './unsend'

export const actsPart: PartPlugin<ActsConfig, RuntimePart> = {
  name: 'acts',
  section: actsSection,
  outbound: [REACT_TAG, POKE_TAG, UNSEND_TAG],
  create(scope) {
    const { config, platform, clock } = scope
    if (!config.react && !config.poke && !config.unsend) return undefined
    const servers: OutboundServer[] = []
    if (config.react) servers.push(reactServer(platform, config.perTurn))
    if (config.poke) servers.push(pokeServer(platform, config.perTurn))
    if (config.unsend) {
      const unsent = (target: { channel: string }, id: string, at: number) =>
        scope.append(scope.conversationOf(target.channel), [{ type: 'unsent', at, id }])
      servers.push(unsendServer({ platform, clock, perTurn: config.perTurn, unsent }))
    }
    return { name: 'acts', outbound: () => servers, prompt: () => ({ protocol: PROTOCOL }) }
  },
}
