/**
 * An action of one parameter's generated `candidates` makes the context's locals ready for each value
 * only where its leading checks read them: checks that read the parameter only along its written-out
 * domain (a field or property of it, by the loop's index) leave the listing's context as they found
 * it, a store per value saved; checks that read the parameter or a `let` otherwise find it there.
 * Either way the values found are the interpreter's, for the same steps.
 */
import { describe, expect, it } from 'vitest';
import { stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { ctxFor } from '../runtime/engine.ts';
import { withFrozenState } from '../runtime/holders.ts';
import { newGame, playoutApply, playoutChoices, type GameState, type Value } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import type { CompiledPack } from '../compiler/index.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** What a local holds before the candidates run: no value of any pack's domain. */
const UNTOUCHED = -12345;

/** `action`'s candidates for `player` in `st`, found by `engine` in a context whose locals all hold `UNTOUCHED`, with the locals after and the steps. */
function found(pack: CompiledPack, st: GameState, action: string, player: string, engine: 'generated' | 'interpreter') {
  const prog = programOf(pack, engine);
  const a = prog.actions[action][0];
  return withStepBudget(() =>
    withFrozenState(() => {
      const c = ctxFor(st, prog, a.slots, player);
      const domain = a.params[0].domain(c) as Value[];
      c.env.fill(UNTOUCHED);
      const values: Value[] = [];
      a.candidates(c, domain, values);
      return { values, locals: c.env.slice(), steps: stepsTaken() };
    }),
  );
}

/** The states of a seeded playout of `pack`, from its start, up to `most` moves. */
function states(pack: CompiledPack, most: number): GameState[] {
  const st = newGame(pack, { players: 2, seed: 7, engine: 'generated' });
  const out: GameState[] = [];
  for (let i = 0; i < most && !st.over; i++) {
    out.push(structuredClone(st));
    const n = playoutChoices(st);
    if (n === 0) break;
    expect(playoutApply(st, (i * 5) % n).ok).toBe(true);
  }
  return out;
}

describe("candidates whose checks read the parameter along its domain alone write no locals", () => {
  for (const [dir, action] of [
    ['test/packs/tictactoe', 'mark'],
    ['test/packs/connect-four', 'drop'],
  ]) {
    it(`${dir}: ${action}`, () => {
      const pack = packIn(dir);
      let listed = 0;
      for (const st of states(pack, 12)) {
        const player = st.prompt!.player;
        const mine = found(pack, st, action, player, 'generated');
        const theirs = found(pack, st, action, player, 'interpreter');
        expect(mine.values).toEqual(theirs.values);
        expect(mine.steps).toBe(theirs.steps);
        expect(mine.locals.every((x) => x === UNTOUCHED)).toBe(true);
        listed += mine.values.length;
      }
      expect(listed).toBeGreaterThan(0);
    });
  }
});

describe('candidates whose checks read a local find it made ready for each value', () => {
  const cases: Record<string, { rules: string; values: Value[] }> = {
    'the parameter itself': { rules: `action spin(n: number in 1..5) "Spin {n}" {\n  require n != 3 else "not three"\n  game.n = n\n}`, values: [1, 2, 4, 5] },
    'a let of the parameter': { rules: `action spin(n: number in 1..5) "Spin {n}" {\n  let m = n * 2\n  require m > 4 else "too small"\n  game.n = m\n}`, values: [3, 4, 5] },
  };
  for (const [what, { rules, values }] of Object.entries(cases)) {
    it(what, () => {
      const pack = compileOk(budgetGame(rules));
      const st = newGame(pack, { players: 1, seed: 1, engine: 'generated' });
      const mine = found(pack, st, 'spin', st.players[0], 'generated');
      const theirs = found(pack, st, 'spin', st.players[0], 'interpreter');
      expect(mine.values).toEqual(values);
      expect(theirs.values).toEqual(values);
      expect(mine.steps).toBe(theirs.steps);
    });
  }
});
