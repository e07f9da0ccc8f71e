/**
 * `step`, the one step the generated code's statements spend (`H.spend`) and the interpreter's, kept
 * small for V8 to inline it: it counts and refuses as `spend()` does, at every budget from none up,
 * so a choice refused by the step budget has the same reason and the same steps taken whichever
 * function spent them (test/engine-codegen-steps.test.ts holds both engines to the same steps).
 */
import { describe, expect, it } from 'vitest';
import { spend, step, stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { Refusal } from '../runtime/refusal.ts';

/** How many times `one` ran before the budget of `steps` refused it, the steps taken then, and the refusal. */
function refusedAt(one: () => void, steps: number): { ran: number; taken: number; refusal: Refusal } {
  return withStepBudget(() => {
    let ran = 0;
    try {
      for (;;) {
        one();
        ran++;
      }
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      return { ran, taken: stepsTaken(), refusal: e };
    }
  }, steps);
}

describe('step', () => {
  it('counts and refuses as spend() does, at every budget', () => {
    for (let steps = 0; steps <= 12; steps++) {
      const one = refusedAt(step, steps);
      const spent = refusedAt(() => spend(), steps);
      expect(one.ran).toBe(steps);
      expect(one.taken).toBe(steps + 1);
      expect({ ran: one.ran, taken: one.taken }).toEqual({ ran: spent.ran, taken: spent.taken });
      expect(one.refusal.message).toBe(spent.refusal.message);
      expect(one.refusal.budget).toBe('step');
      expect(one.refusal.placed).toBe(false);
      expect(spent.refusal.placed).toBe(false);
    }
  });

  it('counts nothing outside a budget', () => {
    expect(() => {
      for (let i = 0; i < 1000; i++) step();
    }).not.toThrow();
  });
});
