// A part's scope for a test that makes one plugin alone (src/part/plugin.ts): its section's config,
// a view on a real home folder, the system clock, ports that record what the part asks.
import { join } from 'node:path'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import type { PartPlugin, PartScope, PartTurnRequest } from '../../src/part/plugin'
import type { Entry } from '../../src/history/entries'
import { systemClock } from '../../src/util/clock'
import { Redactor } from '../../src/util/redact'

const silent = { debug() {}, info() {}, warn() {}, error() {} } as any

export interface RecordedScope<C> extends PartScope<C> {
  appended: [string, Entry[]][]
  requested: [string, PartTurnRequest][]
}

/** The scope `plugin` is made with in a runtime whose home is `home`; `profile` fields beside the defaults. */
export function partScope<C>(plugin: PartPlugin<C, any>, home: string, config: Partial<C> = {}, profile: any = {}): RecordedScope<C> {
  const full = { ...plugin.section?.default, ...config } as C
  const scope: RecordedScope<C> = {
    config: full, clock: systemClock, logger: silent, botName: 'Neko', signal: new AbortController().signal,
    view: {
      profile: { id: 'neko', attachment: { visionModel: '' }, ...profile }, bot: 'onebot:1', home, logger: silent, limits: {} as any,
      resources: {} as any, artifacts: {} as any, assets: new AssetStore(join(home, 'assets')), model: () => undefined, timezone: '',
    },
    calls: { run: async () => { throw new Error('no model in this test') } } as any,
    platform: {}, texts: {} as any, redact: new Redactor([]),
    appended: [], requested: [],
    history: (): never => { throw new Error('no history in this test') },
    append: async (key, entries) => { scope.appended.push([key, entries]) },
    receive: async fact => { scope.appended.push([fact.channel, [{ type: 'fact', at: fact.at, fact }]]); return true },
    request: async (channel, req) => { scope.requested.push([channel, req]) },
    muted: () => false,
    conversationOf: channel => channel,
    part: <P>(): P | undefined => undefined,
    parts: () => [],
  }
  return scope
}
