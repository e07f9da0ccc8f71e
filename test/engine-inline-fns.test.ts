/**
 * A small function of the pack is given inline in the generated code where it is called (its locals
 * in temporaries, no context taken for the call): games with such functions — called in loops and in
 * `where`s, naming their own `where` variables, passing lists, nesting inside a function too large
 * to inline — play the same under both engines, byte for byte, and a function that breaks a budget
 * is refused at the same statement with the same reason.
 */
import { describe, expect, it } from 'vitest';
import { apply, newGame, type EngineName } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { choiceTrail } from './helpers/choiceTrail.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

const pack = compileOk(`kinds:
  game:
    state:
      n: number
      xs: list<number>
      log: list<number>
rules: |
  fn big(x: number): bool = x > 2
  fn above(xs: list<number>, floor: number): list<number> = xs where x: x > floor and count(xs where it == x) == 1
  fn bigs(xs: list<number>): number = count(xs where big(it)) + count(above(xs, 3))
  fn tall(xs: list<number>, k: number): bool = any(xs, it > k) and all(xs, it >= 0)
  action grow(k: number in 1..4) "Grow by {k}" {
    game.xs += [k, game.n]
    game.n += bigs(game.xs)
    for x in game.xs {
      if tall(game.xs where it != x, x) and big(x) {
        game.log += [x]
      }
    }
    require count(game.log) < 40 else "the log is full"
  }
  flow {
    loop max 6 {
      for p in players {
        turn p { offer p: grow }
      }
    }
  }
`);

describe('functions given inline', () => {
  it('are inlined: the generated code takes no context for a small function', () => {
    const source = generatedSource(pack);
    // `bigs` calls functions, so it is called; `big`, `above` and `tall` are given inline.
    expect(source.match(/H\.exprCtx\(/g)?.length).toBe(1);
  });

  it('play the same games under both engines', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const [gen, ref] = ENGINES.map((engine) => choiceTrail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });

  it('run out of the step budget at the same statement', () => {
    const hostile = compileOk(`kinds:
  game:
    state:
      n: number
rules: |
  fn wide(n: number): number = count((1..n) where any(1..n, it < 0))
  action spin "Spin" {
    game.n = wide(100000)
  }
  flow {
    for p in players {
      turn p { offer p: spin }
    }
  }
`);
    const [gen, ref] = ENGINES.map((engine) => {
      const r = apply(newGame(hostile, { players: 1, seed: 1, engine }), 'spin');
      return r.ok ? null : { reason: r.reason, rule: r.rule, budget: r.budget };
    });
    expect(gen?.budget).toBe('step');
    expect(gen).toEqual(ref);
  });
});
