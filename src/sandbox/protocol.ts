// The messages between the host (pool.ts, session.ts) and a sandbox worker (worker/main.ts).
// Arrays, cheap to clone; tool inputs and outputs travel as JSON strings.
//   host -> worker  ['run', id, code, toolNamesJson, limits] | ['res', id, [callId, kind, payload, ...]] | ['abort', id]
//   worker -> host  ['ready', error?] | ['calls', id, [callId, name, inputJson, ...], newLogs]
//                   | ['done', id, result, newLogs, toolCalls, memoryBytes] | ['module', id, seq, url]
// A module's text comes back on its own port (WorkerData.modules): the worker blocks on it inside
// QuickJS's synchronous module loader (worker/modules.ts), after the host bumps [FLAG_MODULE].
// flags (shared Int32Array): [FLAG_POSTED] is bumped by the host after every post so the worker
// can spin on it instead of sleeping (a futex/epoll wake costs ~20 µs here); [FLAG_INTERRUPT]
// holds a run id the host wants stopped, polled by the interrupt handler so even a busy guest
// stops at once.
import type { MessagePort } from 'node:worker_threads'
import type { WorkerLimits } from './limits'
import type { ProgramError } from './types'

export const FLAG_POSTED = 0
export const FLAG_INTERRUPT = 1
export const FLAG_MODULE = 2
/** the flags' length */
export const FLAG_COUNT = 3

/**
 * Settled calls flattened: callId, kind, payload, ...; kind 0 with the output JSON (null for
 * undefined), kind 1 with [errorName, message].
 */
export type FlatReplies = Array<number | string | null | [string, string]>
/** Calls flattened: callId, tool name, input JSON (null for undefined), ... */
export type FlatCalls = Array<number | string | null>

export type HostMessage =
  | [type: 'run', id: number, code: string, namesJson: string, limits: WorkerLimits]
  | [type: 'res', id: number, replies: FlatReplies]
  | [type: 'abort', id: number]

/** What a program ended with: its result as JSON (null for undefined), or an error. */
export type RunResult = { json: string | null } | ProgramError

export type WorkerMessage =
  | [type: 'ready', error?: string]
  | [type: 'calls', id: number, calls: FlatCalls, logs: string[] | null]
  | [type: 'done', id: number, result: RunResult, logs: string[] | null, toolCalls: number, memoryBytes: number | null]
  | [type: 'module', id: number, seq: number, url: string]

/** A module's text (null: failed, with the error's name and message), for run `id`'s request `seq`. */
export type ModuleReply = [id: number, seq: number, source: string | null, name: string, message: string]

export interface WorkerData {
  /** The compiled QuickJS wasm, shared by every worker of the process. */
  wasmModule: WebAssembly.Module
  flags: SharedArrayBuffer
  /** where module texts come back (worker/modules.ts) */
  modules: MessagePort
  /** Memory pages of the first instance to prepare. */
  pages: number
  /** Run a throwaway program before reporting ready (for workers started ahead of need). */
  warm: boolean
  /** How long the worker spins for a tool result before sleeping. */
  spinMs: number
  /** QuickJS's own stack limit. */
  stackBytes: number
}
