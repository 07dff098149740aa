// kotodama.status's budgets (SPEC §22): each limit, what was spent today, the keys that spent most —
// the figures of the book's report, the same the console shows.
import type { Session } from 'koishi'
import type { BudgetReport } from '../budgets/report'
import { formatCost } from '../usage/cost'

export function budgetLines(session: Session, report: BudgetReport): string[] {
  const lines = [session.text('commands.kotodama.status.messages.budgets', [report.day])]
  for (const l of report.lines) {
    const spent = formatCost(l.spent)
    const text = !l.limit ? '.budget-free' : l.spent >= l.limit ? '.budget-held' : '.budget'
    lines.push(session.text(`commands.kotodama.status.messages${text}`, [l.name, spent, formatCost(l.limit)]))
    // `day` has one key (all): its line says it all
    if (l.name === 'day') continue
    for (const k of l.top) {
      const who = k.label ? `${k.label} (${k.key})` : k.key
      lines.push(session.text('commands.kotodama.status.messages.budget-top', [who, formatCost(k.spent)]))
    }
  }
  return lines
}
