// The line a fact, a note or a turn's opening is to the model, made once per entry: entries never
// change once stored, and every request of a conversation renders the same ones again (measuring
// the window, building its messages). Times are in the runtime's zone (budgets.timezone, SPEC §27).
import type { Entry } from '../../history/entries'
import { factLine } from '../../history/render-facts'
import { turnLine } from './turn-line'

type LineEntry = Extract<Entry, { type: 'fact' | 'note' | 'turn' }>

/**
 * One cache per zone. A runtime's zone never changes while it runs (a config change reloads it), so
 * its entries use one map; keying by zone keeps a line from ever showing another runtime's zone.
 */
export function perZone<V>(): (zone: string) => WeakMap<Entry, V> {
  const maps = new Map<string, WeakMap<Entry, V>>()
  return zone => {
    let map = maps.get(zone)
    if (!map) maps.set(zone, map = new WeakMap())
    return map
  }
}

const linesIn = perZone<string>()

/** `zone`: budgets.timezone ('' : the host's) */
export function entryLine(e: LineEntry, zone: string): string {
  const lines = linesIn(zone)
  let line = lines.get(e)
  if (line === undefined) lines.set(e, line = render(e, zone))
  return line
}

function render(e: LineEntry, zone: string): string {
  if (e.type === 'fact') return factLine(e.fact, zone)
  return e.type === 'note' ? e.text : turnLine(e.at, zone)
}
