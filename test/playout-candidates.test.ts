/**
 * An action of one parameter's `candidates` (what a listing takes when the action keeps no answers
 * for another, generated as one loop with the checks written in it) against the interpreter's, and
 * both against `holdsWith` asked of each value of the domain, as listing asks it of an action that
 * keeps its answers: at every step of seeded playouts of every
 * shipped and bench pack, for every such action and every player, the same values pass, in the same
 * order, for the same budget steps; and a listing that runs out of budget in those checks is refused
 * with the same reason by either engine.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newGame, playoutApply, playoutChoices, type EngineName, type GameState, type Value } from '../runtime/index.ts';
import { stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { ctxFor, emptied } from '../runtime/engine.ts';
import { withFrozenState } from '../runtime/holders.ts';
import { programOf } from '../runtime/link.ts';
import type { ActionCode, Program } from '../runtime/program.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** What one way of finding the candidates gives: the values, or the refusal, and the steps it took. */
interface Found {
  values: Value[] | string;
  steps: number;
}

function ctxOf(prog: Program, st: GameState, a: ActionCode, player: string) {
  return ctxFor(st, prog, a.slots, player, a.card?.card ?? null, a.card ? player : null);
}

/** Under a budget of its own, as a listing runs: the domain, then `find` over it. */
function measured(prog: Program, st: GameState, a: ActionCode, player: string, find: (c: ReturnType<typeof ctxOf>, domain: Value[]) => Value[]): Found {
  return withStepBudget(() =>
    withFrozenState(() => {
      const c = ctxOf(prog, st, a, player);
      try {
        const domain = a.params[0].domain(c) as Value[];
        const values = find(c, domain);
        return { values, steps: stepsTaken() };
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        return { values: e.message, steps: stepsTaken() };
      }
    }),
  );
}

const byCandidates = (a: ActionCode) => (c: ReturnType<typeof ctxOf>, domain: Value[]) => {
  const out: Value[] = [];
  a.candidates(c, domain, out);
  return out;
};

const byHoldsWith = (a: ActionCode) => (c: ReturnType<typeof ctxOf>, domain: Value[]) => {
  const out: Value[] = [];
  for (const v of domain) {
    emptied(c.env)[0] = v;
    c.it = null;
    c.value = null;
    if (a.holdsWith(c, 1, 0, 0) < 0) out.push(v);
  }
  return out;
};

/** Every action of one parameter of the program, by its name and place. */
function singles(prog: Program): Array<[string, ActionCode]> {
  const out: Array<[string, ActionCode]> = [];
  for (const [name, list] of Object.entries(prog.actions)) list.forEach((a, i) => a.params.length === 1 && out.push([`${name}#${i}`, a]));
  return out;
}

const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];

describe('the candidates of an action of one parameter are the values holdsWith lets pass, by either engine', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      const gen = programOf(pack, 'generated');
      const ref = programOf(pack, 'interpreter');
      const actions = { gen: new Map(singles(gen)), ref: singles(ref) };
      expect([...actions.gen.keys()]).toEqual(actions.ref.map(([k]) => k));
      let compared = 0;
      let passed = 0;
      for (const players of new Set([pack.players.min, Math.min(pack.players.max, 4)])) {
        // The bench's small games, more seeds; the shipped packs' long games, two.
        for (const seed of dir.startsWith('content/') ? [1, 2] : [1, 2, 3, 4, 5, 6, 7, 8]) {
          const st = newGame(pack, { players, seed, engine: 'interpreter' });
          let rng = seedState(`candidates ${seed}`);
          for (let step = 0; step < 80 && !st.over; step++) {
            for (const [key, a] of actions.ref) {
              for (const player of st.players) {
                const b = actions.gen.get(key)!;
                // The first asks find the cards' holders, kept with the state, which later asks read: all are compared once those are kept.
                measured(gen, st, b, player, byHoldsWith(b));
                measured(ref, st, a, player, byHoldsWith(a));
                const mine = measured(gen, st, b, player, byCandidates(b));
                const theirs = measured(ref, st, a, player, byCandidates(a));
                const checked = measured(ref, st, a, player, byHoldsWith(a));
                const where = `${dir} ${players}p seed ${seed} step ${step} ${key} for ${player}`;
                expect(mine, where).toEqual(theirs);
                expect(theirs, where).toEqual(checked);
                compared++;
                if (Array.isArray(mine.values)) passed += mine.values.length;
              }
            }
            const n = playoutChoices(st);
            if (!n) break;
            const r = nextRandom(rng);
            rng = r.state;
            const res = playoutApply(st, Math.floor(r.value * n));
            expect(res.ok, `${dir} seed ${seed} step ${step}: ${res.ok ? '' : res.reason}`).toBe(true);
          }
        }
      }
      if (actions.ref.length) {
        expect(compared).toBeGreaterThan(0);
        expect(passed).toBeGreaterThan(0);
      }
    });
  }
});

describe('a playout listing that runs out of budget in its checks', () => {
  const cases: Record<string, string> = {
    'a require with an any over a long range, for each of many values': `action spin(n: number) "Spin {n}" {\n  require not any(1..100000, it == n * 0 - 1) else "never"\n  game.n = n\n}`,
    'a let before the require, over a long range': `action spin(n: number) "Spin {n}" {\n  let k = sum(1..50000, it)\n  require k > n else "never"\n  game.n = n\n}`,
  };
  const domain = (rules: string) => rules.replace('(n: number)', '(n: number in 1..100)');
  for (const [what, rules] of Object.entries(cases)) {
    it(what, () => {
      // Offered last, so it keeps no answers for another action, and a playout lists it by `candidates`.
      const pack = compileOk(budgetGame(domain(rules)).replace('offer p: spin, rest', 'offer p: rest, spin'));
      const engines: EngineName[] = ['generated', 'interpreter'];
      const [gen, ref] = engines.map((engine) => {
        const st = newGame(pack, { players: 1, seed: 1, engine });
        const before = JSON.stringify(st);
        let refusal: string | undefined;
        try {
          playoutChoices(st);
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          refusal = e.message;
        }
        expect(JSON.stringify(st)).toBe(before);
        return refusal;
      });
      expect(gen).toBe(ref);
      expect(gen).toMatch(/step budget/);
    });
  }
});
