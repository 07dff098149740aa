// Who pays for the model calls made while a turn runs (SPEC §22): the turn sets its payer once, and
// every request made inside it — a vision question from read or a program, a search's query
// embedding, another plugin's tool calling runtime.model(id) — pays for the same conversation and
// people without each caller passing it along.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Payer } from '../contract/budget'

const scope = new AsyncLocalStorage<Payer>()

/** Runs `fn` with `payer` as the payer of the calls it makes. */
export function withPayer<T>(payer: Payer, fn: () => T): T {
  return scope.run(payer, fn)
}

/** The payer of the running turn; undefined outside one (background work pays only all/profile). */
export function currentPayer(): Payer | undefined {
  return scope.getStore()
}
