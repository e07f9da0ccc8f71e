/** The evaluation budgets (runtime/budget.ts) whose end refuses a choice. */
export const BUDGET_NAMES = ['step', 'list', 'text', 'range', 'choices'] as const;
export type BudgetName = (typeof BUDGET_NAMES)[number];

/** Thrown by a failed `require` or a rule that cannot go on; `apply` turns it into a refusal. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly where?: string,
    /** Set when an evaluation budget ended the rules, so that is told as data, never read from the wording. */
    readonly budget?: BudgetName,
  ) {
    super(message);
  }
}
