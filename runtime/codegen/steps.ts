import { spend, STEP_BUDGET, stepsTaken } from '../budget.ts';

/**
 * `n` steps spent at once where `n` calls of `spend()` would each spend one: the generated code's
 * quiet loops count their elements and spend them when they end (`emit.ts`, `Unit.quiet`). Past
 * the budget it is refused with the steps counted as one at a time leave them, one past the budget,
 * so a refused choice has taken the same steps whichever engine ran it: a quiet body spends a step
 * at a time (nothing in it spends a list's length in one call), so the interpreter's count stops
 * there too.
 */
export function spendMany(n: number): void {
  const left = STEP_BUDGET - stepsTaken();
  spend(n > left ? left + 1 : n);
}
