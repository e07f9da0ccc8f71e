/** The evaluation budgets (runtime/budget.ts) whose end refuses a choice. */
export const BUDGET_NAMES = ['step', 'list', 'text', 'range', 'choices'] as const;
export type BudgetName = (typeof BUDGET_NAMES)[number];

/** Thrown by a failed `require` or a rule that cannot go on; `apply` turns it into a refusal. */
export class Refusal extends Error {
  /**
   * False while a refusal of the statement running (`refuse`) has not reached the innermost block
   * running a statement, which names that statement in `where` (`runBlock`).
   */
  placed = true;

  constructor(
    message: string,
    public where?: string,
    /** Set when an evaluation budget ended the rules, so that is told as data, never read from the wording. */
    readonly budget?: BudgetName,
  ) {
    super(message);
  }
}
