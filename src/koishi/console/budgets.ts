// The console's budgets view (SPEC §22 "What it may cost"): each budget's limit and what was spent
// today, and who spent most. Authority 4, as the page's other listeners.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import type { BudgetReport } from '../../budgets/report'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/budgets'(): Promise<BudgetReport>
  }
}

const AUTHORITY = 4

export function registerBudgets(ctx: Context) {
  ctx.console.addListener('kotodama/budgets', () => ctx.kotodama.budgetReport(), { authority: AUTHORITY })
}
