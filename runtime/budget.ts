import { Refusal, type BudgetName } from './refusal.ts';

/**
 * What one choice (or the setup of a game, or listing the legal choices) may cost. Every rule ends
 * (no `while`, no recursion), but an untrusted pack's `repeat 1000000000`, an `any` over a range
 * inside a `where` over another, a function calling the previous one twice forty deep, a list or a
 * text doubled forty times, or an action with two parameters in 1..100000 would still hang the
 * playground or fill the memory. Past a budget the choice is refused, naming the budget and the
 * statement that ran (`file:line`), and the state is left as it was.
 */
export const STEP_BUDGET = 2_000_000;
/** The longest list a range (`1..n`) may make. */
export const MAX_RANGE = 100_000;
/** The longest list a rule may make or keep. */
export const MAX_LIST = 100_000;
/** The longest text a rule may make. */
export const MAX_TEXT = 100_000;
/** The most combinations of an action's parameters listed as choices. */
export const MAX_COMBINATIONS = 100_000;

const fmt = (n: number) => n.toLocaleString('en');

let stepsLeft = Infinity;
/** The steps the budget running now began with. */
let budget = STEP_BUDGET;

/**
 * `run` under a step budget of its own: a choice's (`STEP_BUDGET`), or `steps`, fewer, where a test
 * has a rule run out of steps at each of its steps in turn.
 */
export function withStepBudget<T>(run: () => T, steps = STEP_BUDGET): T {
  const outer = stepsLeft;
  const outerBudget = budget;
  stepsLeft = budget = steps;
  try {
    return run();
  } finally {
    stepsLeft = outer;
    budget = outerBudget;
  }
}

/**
 * The budget running now begun again, as `withStepBudget` begins one: a driven playout
 * (`drivenPlayout.ts`) makes many choices under one call, each with a choice's budget.
 */
export function freshBudget(): void {
  stepsLeft = budget;
}

/** The steps spent so far under the budget running now. */
export function stepsTaken(): number {
  return budget - stepsLeft;
}

/** A mark of the steps spent so far under the budget running now, to count those spent since (`stepsSince`). */
export function stepsMark(): number {
  return stepsLeft;
}

/** The steps spent since `mark`; not finite outside any budget, where none are counted. */
export function stepsSince(mark: number): number {
  return mark - stepsLeft;
}

/**
 * Refuses the choice at the statement running now; `budget` when it is that budget's end. The
 * statement is named by the innermost block that runs it (`placed`), as the refusal passes: marking
 * each statement as it began cost every statement run two writes, for the few that are refused.
 */
export function refuse(message: string, budget?: BudgetName): never {
  const r = new Refusal(message, undefined, budget);
  r.placed = false;
  throw r;
}

/** `e`, a refusal of the statement running (`refuse`) that no inner block has placed, placed at `at`: the statement that block runs. */
export function placed(e: unknown, at: string | undefined): unknown {
  if (e instanceof Refusal && !e.placed) {
    e.where = at;
    e.placed = true;
  }
  return e;
}

/** Statements, loop rounds, function calls and the elements an expression visits each cost a step. */
export function spend(steps = 1): void {
  if ((stepsLeft -= steps) < 0) overSpent();
}

/**
 * `spend()`, one step, for the generated code's statements (`H.spend`) and the interpreter's. Kept
 * under V8's size for a small function, which it inlines into any caller: the generated flow and
 * bodies call it at every statement, and inlining their larger calls spent V8's budget first, each
 * `spend` left a call (a tenth of a small game's instructions in a driven playout, callgrind).
 */
export function step(): void {
  if (--stepsLeft < 0) overSpent();
}

function overSpent(): never {
  refuse(`the rules ran more than ${fmt(budget)} steps for one choice (the step budget): a loop or an expression in the pack runs too long`, 'step');
}

/**
 * `n` steps spent at once where `n` calls of `spend()` would each spend one: the generated code's
 * quiet loops count their elements, and the steps of the loops and functions inside them, and
 * spend them when they end (codegen/emit.ts, `Unit.quiet`). Past the budget it is refused with the
 * steps counted as one at a time leave them, one past the budget, so a refused choice has taken the
 * same steps whichever engine ran it: a quiet body spends a step at a time (nothing in it spends a
 * list's length in one call), so the interpreter's count stops there too.
 */
export function spendMany(n: number): void {
  spend(n > stepsLeft ? stepsLeft + 1 : n);
}

export function checkList<T>(xs: T[]): T[] {
  if (xs.length > MAX_LIST) refuse(`a list would hold more than ${fmt(MAX_LIST)} values (the list budget)`, 'list');
  return xs;
}

export function checkText(s: string): string {
  if (s.length > MAX_TEXT) refuse(`a text would be longer than ${fmt(MAX_TEXT)} characters (the text budget)`, 'text');
  return s;
}

/** Numbers stay finite: an overflow is refused where it happens, not carried into scores as Infinity or NaN. */
export function checkNumber(x: number, made: () => string): number {
  if (!Number.isFinite(x)) refuse(`${made()} is not a finite number`);
  return x;
}

/** A count of rounds or a die size: a whole number, at least `min`. */
export function checkCount(n: number, min: number, what: string): number {
  if (!Number.isInteger(n) || n < min) refuse(`${what} must be a whole number${min > 0 ? ` from ${min}` : ', 0 or more'}, not ${n}`);
  return n;
}

export function rangeOf(from: number, to: number): number[] {
  if (!Number.isInteger(from) || !Number.isInteger(to)) refuse(`the range ${from}..${to} needs whole numbers at both ends`);
  if (to - from + 1 > MAX_RANGE) refuse(`the range ${from}..${to} holds more than ${fmt(MAX_RANGE)} numbers (the range budget)`, 'range');
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}
