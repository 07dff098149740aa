// The tasks of one runtime in memory: by id, and a heap for the soonest (docs/schedules.md "One
// timer"). What the store holds is loaded into it; it changes only after the store took a change.
import { DueHeap } from './due-heap'
import type { Task, TaskAsker } from './task'

export class TaskIndex {
  private tasks = new Map<string, Task>()
  private heap = new DueHeap()

  get size(): number {
    return this.tasks.size
  }

  /** Everything, as the store holds it now. */
  load(tasks: readonly Task[]): void {
    this.tasks.clear()
    this.heap.clear()
    for (const t of tasks) this.put(t)
  }

  put(t: Task): void {
    this.tasks.set(t.id, t)
    this.heap.push(t.next, t.id)
  }

  delete(id: string): void {
    this.tasks.delete(id)
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id)
  }

  has(id: string): boolean {
    return this.tasks.has(id)
  }

  /** The open tasks of `conversation`, soonest first. */
  openOf(conversation: string): Task[] {
    return [...this.tasks.values()].filter(t => t.conversation === conversation).sort((a, b) => a.next - b.next)
  }

  /** Every open task, soonest first. */
  all(): Task[] {
    return [...this.tasks.values()].sort((a, b) => a.next - b.next)
  }

  /** Open tasks `who` asked for. */
  countOf(who: TaskAsker): number {
    let n = 0
    for (const t of this.tasks.values()) if (t.who.platform === who.platform && t.who.id === who.id) n++
    return n
  }

  /** The soonest task's time and id (stale heap entries skipped; rebuilt when they outnumber the tasks). */
  soonest(): { at: number; id: string } | undefined {
    if (this.heap.size > 2 * this.tasks.size + 64) this.load([...this.tasks.values()])
    return this.heap.peek((id, at) => this.tasks.get(id)?.next === at)
  }

  /** Takes the soonest entry off the heap (the task stays); put it back with `requeue`. */
  popSoonest(): void {
    this.heap.pop()
  }

  requeue(t: Task): void {
    this.heap.push(t.next, t.id)
  }
}
