// Who woke a turn, and who the bot owner's people are (SPEC §22 "Who may steer it"): what the
// permission check (src/trust/permission.ts) reads. The runtime fills these from the facts that
// woke the turn, never from anything the model writes.

/** An author's role in the group, as the platform gives it (OneBot's `sender.role`). */
export type GroupRole = 'owner' | 'admin' | 'member'

/** The author of a fact that woke the turn. */
export interface TurnAuthor {
  platform: string
  /** the user id as the platform gives it */
  id: string
  /** their display name as the fact has it (the console's label for what they spent); never decides anything */
  name?: string
  /** their role in the group, where the platform gives one */
  role?: GroupRole
  /** the platform marks them as a bot: they hold no role */
  bot?: boolean
}

/** The bot owner's people: `trust.owners`, and the Koishi authority where a database keeps users. */
export interface OwnerBook {
  /** 'platform:userId' of `trust.owners` */
  readonly owners: ReadonlySet<string>
  /** The user's Koishi authority; undefined without a database or a user record. Looked up only when a check needs it. */
  authorityOf?(platform: string, userId: string): Promise<number | undefined>
}
