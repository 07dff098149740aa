// Where tasks are kept (SPEC §25): a file of the runtime home, or Koishi's database under
// `storage: database` (records-store.ts), where instances sharing it fire each task once. Every
// change resolves only once it is stored: a firing is recorded before its turn starts.
import type { Task } from './task'

/** Thrown when the store cannot take a change (a full disk, a database gone); nothing changed. */
export class TaskStoreError extends Error {
  override name = 'TaskStoreError'
}

export interface TaskStore {
  /** for the log: the file's path or the table's name */
  readonly where: string
  /** other instances change it too (a shared database): it is read again now and then */
  readonly shared?: boolean
  /** every task of the runtime, as stored now (a database: also those another instance added) */
  load(): Promise<Task[]>
  add(task: Task): Promise<void>
  /**
   * Records a firing of `task` (as last read: its `rev`): a repeating one moves to `next` (rev + 1),
   * a one-time one (`next` undefined) is gone. false: it changed or went meanwhile (another instance
   * fired or cancelled it), and nothing is done.
   */
  fired(task: Task, next: number | undefined): Promise<boolean>
  /**
   * Puts back `task` as it was before a firing whose turn never started (the runtime stopped first);
   * `firedAs`: what the firing stored (undefined: a one-time task, gone). Returns it as stored now.
   */
  restore(task: Task, firedAs: Task | undefined): Promise<Task>
  /** false: it was gone already */
  remove(task: Task): Promise<boolean>
  stop(): Promise<void>
}
