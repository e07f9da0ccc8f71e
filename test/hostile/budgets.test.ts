/**
 * One budget for everything a rule does (issue #10, items 3 and 4): nested expressions, chains of
 * function calls, the product of an action's parameters, lists and texts that double, and numbers
 * that stop being finite. Each is refused with the budget it broke and the statement (`file:line`)
 * that broke it, and the state stays as it was before the choice.
 */
import { describe, expect, it } from 'vitest';
import { MAX_COMBINATIONS, MAX_LIST, MAX_RANGE, MAX_TEXT, STEP_BUDGET } from '../../runtime/budget.ts';
import { apply, legalChoices, newGame } from '../../runtime/index.ts';
import { Refusal, type BudgetName } from '../../runtime/refusal.ts';
import { budgetGame as game, compileOk } from '../helpers/inlinePack.ts';

/** `game.yaml:N` of the first line holding `marker`. */
function lineOf(text: string, marker: string): string {
  return `game.yaml:${text.split('\n').findIndex((l) => l.includes(marker)) + 1}`;
}

/**
 * Takes `spin`, which must be refused at the line holding `marker`, as the end of `budget` or, without
 * it, for another reason; the state must not change.
 */
function refused(rules: string, marker: string, budget?: BudgetName): string {
  const text = game(rules);
  const st = newGame(compileOk(text), { players: 1, seed: 1 });
  const before = JSON.stringify(st);
  const r = apply(st, 'spin');
  expect(r.ok).toBe(false);
  expect(JSON.stringify(st)).toBe(before);
  if (r.ok) return '';
  expect(r.rule).toBe(lineOf(text, marker));
  expect(r.budget).toBe(budget);
  return r.reason;
}

const fmt = (n: number) => n.toLocaleString('en');

describe('the step budget counts expressions too', () => {
  it('an `any` over a range inside a `where` over another', () => {
    const reason = refused(
      `action spin "Spin" {
  game.n = count((1..100000) where any(1..100000, it < 0))
}`,
      'game.n = count',
      'step',
    );
    expect(reason).toContain(`more than ${fmt(STEP_BUDGET)} steps for one choice (the step budget)`);
  });

  it('functions each calling the one before twice, forty deep', () => {
    const fns = ['fn f0(x: number): number = x + 1', ...Array.from({ length: 40 }, (_, i) => `fn f${i + 1}(x: number): number = f${i}(x) + f${i}(x)`)];
    const reason = refused(`${fns.join('\n')}\naction spin "Spin" {\n  game.n = f40(1)\n}`, 'game.n = f40(1)', 'step');
    expect(reason).toContain('(the step budget)');
  });

  it('leaves the shipped kind of work alone: a few thousand elements visited', () => {
    const st = newGame(compileOk(game(`action spin "Spin" {\n  game.n = count((1..3000) where any(1..300, it == 300))\n}`)), { players: 1, seed: 1 });
    const r = apply(st, 'spin');
    expect(r.ok && r.state.e.game.n).toBe(3000);
  });
});

describe('parameters', () => {
  const text = game(`action spin(x: number in 1..100000, y: number in 1..100000) "Spin" {
  game.n = x + y
}`);
  const pack = compileOk(text);

  it(`listing more than ${fmt(MAX_COMBINATIONS)} combinations is refused, naming the action`, () => {
    const st = newGame(pack, { players: 1, seed: 1 });
    let error: unknown;
    try {
      legalChoices(st);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).message).toBe(`the parameters of spin make more than ${fmt(MAX_COMBINATIONS)} combinations (the choices budget)`);
    expect((error as Refusal).where).toBe(lineOf(text, 'action spin'));
    expect((error as Refusal).budget).toBe('choices');
  });

  it('one of them can still be taken', () => {
    const st = newGame(pack, { players: 1, seed: 1 });
    const r = apply(st, 'spin 99999 7');
    expect(r.ok && r.state.e.game.n).toBe(100006);
  });
});

describe('growth', () => {
  it(`a list doubled past ${fmt(MAX_LIST)} values`, () => {
    const reason = refused(
      `action spin "Spin" {
  game.xs = [1]
  repeat 40 {
    game.xs += game.xs
  }
}`,
      'game.xs += game.xs',
      'list',
    );
    expect(reason).toBe(`a list would hold more than ${fmt(MAX_LIST)} values (the list budget)`);
  });

  it(`a list grown one value at a time past ${fmt(MAX_LIST)}`, () => {
    const reason = refused(
      `action spin "Spin" {
  repeat 200000 {
    put 1 on bottom of game.xs
  }
}`,
      'put 1 on bottom',
      'list',
    );
    expect(reason).toContain('(the list budget)');
  });

  it(`a text doubled past ${fmt(MAX_TEXT)} characters`, () => {
    const reason = refused(
      `action spin "Spin" {
  game.s = "ab"
  repeat 40 {
    game.s = game.s + game.s
  }
}`,
      'game.s = game.s + game.s',
      'text',
    );
    expect(reason).toBe(`a text would be longer than ${fmt(MAX_TEXT)} characters (the text budget)`);
  });
});

describe('a budget is told by the refusal, not by its wording', () => {
  it(`a range of more than ${fmt(MAX_RANGE)} numbers`, () => {
    const reason = refused(`action spin "Spin" {\n  game.n = count(1..200000)\n}`, 'game.n = count', 'range');
    expect(reason).toBe(`the range 1..200000 holds more than ${fmt(MAX_RANGE)} numbers (the range budget)`);
  });

  it("a pack's `require` whose message reads like a budget's end names no budget", () => {
    const mimic = `the rules ran more than ${fmt(STEP_BUDGET)} steps for one choice (the step budget)`;
    const reason = refused(`action spin "Spin" {\n  game.n += 1\n  require game.n > 5 else "${mimic}"\n}`, 'require game.n > 5');
    expect(reason).toBe(mimic);
  });
});

describe('numbers', () => {
  it('an overflow is refused where it happens', () => {
    const reason = refused(
      `action spin "Spin" {
  game.n = 10
  repeat 400 {
    game.n = game.n * 1000
  }
}`,
      'game.n = game.n * 1000',
    );
    expect(reason).toMatch(/^1e\+\d+ \* 1000 is not a finite number$/);
  });

  it('an overflow by `+=` names the field', () => {
    const reason = refused(
      `action spin "Spin" {
  game.n = 10
  repeat 400 {
    game.n = game.n * 100
    game.n += game.n * 9
  }
}`,
      'game.n = game.n * 100',
    );
    expect(reason).toContain('is not a finite number');
  });

  for (const n of ['0', '0 - 3']) {
    it(`random(${n}) is refused`, () => {
      const reason = refused(`action spin "Spin" {\n  game.n = random(${n})\n}`, 'game.n = random');
      expect(reason).toBe(`the n of random(n) must be a whole number from 1, not ${n === '0' ? 0 : -3}`);
    });
  }

  it('a negative number of rounds is refused', () => {
    const reason = refused(`action spin "Spin" {\n  repeat 0 - 5 {\n    game.n += 1\n  }\n}`, 'repeat 0 - 5');
    expect(reason).toBe('the number of rounds must be a whole number, 0 or more, not -5');
  });
});
