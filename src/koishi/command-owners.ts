// Who may run kotodama's commands (SPEC §22 "Loops cost nothing", last bullet). Koishi checks a
// command's authority only when the session has a user record, which needs a database; without
// one, every command under `kotodama` answers only the people of `trust.owners` ('platform:userId')
// and refuses anyone else in one short line (the owner who misspelled their id learns why). With a
// database, Koishi's authority decides, as before. The console's listeners are not commands: the
// console checks their authority itself.
import type { Context, Session } from 'koishi'

/** A command of kotodama's: `kotodama` itself and any command under it. */
const ours = (name: string) => name === 'kotodama' || name.startsWith('kotodama.')

/** Whether the session's author is one of `trust.owners`. */
export function isTrustedOwner(ctx: Context, session: Session): boolean {
  return ctx.kotodama.checked.trust.owners.includes(`${session.platform}:${session.userId}`)
}

/** An owner: one of `trust.owners`, or authority 4 where a database keeps users (SPEC §22: names another conversation). */
export function isOwner(ctx: Context, session: Session): boolean {
  const authority = (session.user as { authority?: number } | undefined)?.authority ?? 0
  return isTrustedOwner(ctx, session) || authority >= 4
}

export function guardCommands(ctx: Context): void {
  ctx.before('command/execute', ({ session, command }) => {
    if (!command || !ours(command.name) || session.user) return
    if (!isTrustedOwner(ctx, session)) return session.text('commands.kotodama.messages.owners-only')
  })
}
