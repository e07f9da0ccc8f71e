/**
 * The steps of a quiet loop in the generated code (`runtime/codegen/emit.ts`, `Unit.loop`): its
 * elements', and those of the quiet loops and the functions given inline within it, counted in a
 * temporary and spent at once (`H.spendMany`), where the interpreter spends each as it comes. Such
 * a loop changes nothing but its own temporaries and can be refused by the step budget alone, so
 * "the same point of refusal" is what a refusal leaves to be seen: its reason, the statement it
 * names, and the steps counted, one past the budget. Every budget from none to enough is tried here,
 * so the budget runs out at every step of the listing in turn, on both engines.
 */
import { describe, expect, it } from 'vitest';
import { stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { ctxFor } from '../runtime/engine.ts';
import { withFrozenState } from '../runtime/holders.ts';
import { newGame, type CompiledPack, type EngineName, type Value } from '../runtime/index.ts';
import { generatedSource, programOf } from '../runtime/link.ts';
import { Refusal } from '../runtime/refusal.ts';
import { compileOk } from './helpers/inlinePack.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

/**
 * Spots on rows, some taken by the first player at the start; a claim is refused where a row of the
 * spot is full of the claimer's spots (`any` over the spot's rows of an `all` over each row's spots,
 * in a function given inline), and, to reach three loops deep, where no spot at all has such a row.
 */
const rows = compileOk(
  `kinds:
  spot:
    props:
      rows: list<row>
    state:
      owner: player?
  row:
    props:
      spots: list<spot>
entities:
  - row: r1
    spots: [s1, s2, s3]
  - row: r2
    spots: [s4, s5, s6]
  - row: r3
    spots: [s1, s4]
  - row: r4
    spots: [s2, s5, s3, s6]
  - spot: s1
    rows: [r1, r3]
  - spot: s2
    rows: [r1, r4]
  - spot: s3
    rows: [r1, r4]
  - spot: s4
    rows: [r2, r3]
  - spot: s5
    rows: [r2, r4]
  - spot: s6
    rows: [r2, r4]
rules: |
  fn full(r: row, p: player): bool = all(r.spots, it.owner == p)
  setup {
    s1.owner = first(players)
    s4.owner = first(players)
    s5.owner = first(players)
  }
  action claim(s: spot) "Claim {s}" {
    require not any(s.rows, full(it, me)) else "{s} is on a full row"
    require count(spots where any(it.rows, full(it, me))) > 0 else "no row is full"
    s.owner = me
  }
  flow {
    for p in players {
      turn p { offer p: claim }
    }
  }
`,
  { min: 2, max: 2 },
);

/** What listing `claim`'s values under a budget of `budget` steps gives on `engine`: the values, or the refusal; and the steps counted. */
function listed(pack: CompiledPack, engine: EngineName, budget: number): { values: Value[] | string; steps: number } {
  const st = newGame(pack, { players: 2, seed: 1, engine });
  const prog = programOf(pack, engine);
  const a = prog.actions.claim[0];
  return withStepBudget(
    () =>
      withFrozenState(() => {
        const c = ctxFor(st, prog, a.slots, st.players[0], null, null);
        try {
          const out: Value[] = [];
          a.candidates(c, a.params[0].domain(c) as Value[], out);
          return { values: out, steps: stepsTaken() };
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          return { values: `${e.message} (${e.budget})`, steps: stepsTaken() };
        }
      }),
    budget,
  );
}

describe('the steps of quiet loops within quiet loops, counted and spent at once', () => {
  it('are counted in one temporary, the function given inline counted with them', () => {
    const source = generatedSource(rows);
    // The inline function's step is one more of the loop's (`v5++`), not a call of `H.spend`, and a loop within spends
    // what it owes only past a thousand steps.
    expect(source).toMatch(/for \(v\d+ = 0; v\d+ < v\d+\.length; v\d+\+\+\) \{v\d+ = v\d+\[v\d+\];v\d+\+\+;/);
    expect(source).toMatch(/(v\d+) \+= \(v\d+ < v\d+\.length \? v\d+ \+ 1 : v\d+\); if \(\1 > 1000\) \{H\.spendMany\(\1\); \1 = 0;\}/);
    expect(source).toMatch(/H\.spendMany\(v\d+ \+ \(v\d+ < v\d+\.length \? v\d+ \+ 1 : v\d+\)\);/);
  });

  it('list the same values in the same steps as the interpreter with enough budget', () => {
    const [gen, ref] = ENGINES.map((engine) => listed(rows, engine, 1_000_000));
    expect(gen).toEqual(ref);
    // s1 and s4 are on r3, full (s1, s4 taken); the others' rows have a free spot, and r3 is a full row of some spot.
    expect(gen.values).toEqual(['s2', 's3', 's5', 's6']);
    expect(gen.steps).toBeGreaterThan(100);
  });

  it('run out of budget at every step in turn as the interpreter does: the same reason, the same count, one past the budget', () => {
    const enough = listed(rows, 'interpreter', 1_000_000).steps;
    let refused = 0;
    for (let budget = 0; budget <= enough; budget++) {
      const [gen, ref] = ENGINES.map((engine) => listed(rows, engine, budget));
      expect(gen, `a budget of ${budget} steps`).toEqual(ref);
      if (budget < enough) {
        expect(gen.values, `a budget of ${budget} steps`).toMatch(/\(step\)$/);
        expect(gen.steps).toBe(budget + 1);
        refused++;
      }
    }
    expect(refused).toBe(enough);
    expect(listed(rows, 'generated', enough).values).toEqual(['s2', 's3', 's5', 's6']);
  });
});
