// Where the budget book keeps what was spent (SPEC §22 "What it may cost"): a file per day under
// the data folder, or Koishi's database with `storage: database` (two instances sharing a database
// share the budget). A store only adds: an amount is an increment, never a value that overwrites
// another instance's.

/**
 * What one budget counts: all runtimes, one profile, one conversation, or one person; `reply` marks a
 * conversation that got budgets.reply that day (so a restart, or another instance, does not send it again).
 */
export type BudgetScope = 'all' | 'profile' | 'channel' | 'user' | 'reply'

/** Every scope a stored row may have: what the stores accept when they read or add. */
export const BUDGET_SCOPES: ReadonlySet<string> = new Set<BudgetScope>(['all', 'profile', 'channel', 'user', 'reply'])

/**
 * One key's spending on one day. Keys: `all`; `profile:<profileId>`;
 * `channel:<profile>/<bot>/<conversationId>`; `user:<platform>:<userId>`; `reply:<channel key>`.
 */
export interface SpentRow {
  /** YYYY-MM-DD in budgets.timezone (util/day.ts) */
  day: string
  scope: BudgetScope
  key: string
  /** in the unit of models[].price */
  spent: number
  /** what the console shows for the key (a group's name, a person's name); the last one written wins */
  label?: string
}

export interface BudgetStore {
  /** The day's rows as stored now, other instances' spending included for a shared store. */
  read(day: string): Promise<SpentRow[]>
  /** Adds each row's `spent` to the stored amount of (day, key), creating the row when missing. */
  add(rows: SpentRow[]): Promise<void>
  /** Forgets the days before `day`. */
  prune(before: string): Promise<void>
}
