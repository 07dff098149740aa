// The line a fact, a note or a turn's opening is to the model, made once per entry: entries never
// change once stored, and every request of a conversation renders the same ones again (measuring
// the window, building its messages).
import type { Entry } from '../../history/entries'
import { factLine } from '../../history/render-facts'
import { turnLine } from './turn-line'

type LineEntry = Extract<Entry, { type: 'fact' | 'note' | 'turn' }>

const lines = new WeakMap<Entry, string>()

export function entryLine(e: LineEntry): string {
  let line = lines.get(e)
  if (line === undefined) lines.set(e, line = e.type === 'fact' ? factLine(e.fact) : e.type === 'note' ? e.text : turnLine(e.at))
  return line
}
