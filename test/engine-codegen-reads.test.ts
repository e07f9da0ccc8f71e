/**
 * What the generated code leaves out where it knows better than to ask (`runtime/codegen/emit.ts`),
 * against the interpreter, which asks every time:
 * - `==` and `!=` compare with `===` where a side is never a list (`Unit.scalar`), and element by
 *   element (`H.same`) where both may be: lists of a field, a property, a local, written out;
 * - a record is looked up with no test of its id where the id is an element of a list of entities
 *   (a property's, a domain's), and a property is read from its column for any value, none included;
 * - where that list is walked (`Walk`), the record is read from the state's records by number, by a
 *   number found when the code was made, kept in step with the table through writes, refusals put
 *   back and new games;
 * - a loop whose body can be refused by nothing but the step budget, a step at a time
 *   (`Unit.quiet`), spends its elements' steps when it ends (`H.spendMany`): a listing takes the
 *   same steps, and one that runs out of budget is refused with the same reason at the same count,
 *   one past the budget; a body with something that spends many steps in one call (`in`, `-` on
 *   lists, `position`) spends each as it goes, the count at a refusal then as far past the budget
 *   as that call took it, on both engines.
 */
import { describe, expect, it } from 'vitest';
import { STEP_BUDGET, stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { ctxFor } from '../runtime/engine.ts';
import { withFrozenState } from '../runtime/holders.ts';
import { apply, legalChoices, newGame, playoutApply, playoutChoices, type CompiledPack, type EngineName, type Value } from '../runtime/index.ts';
import { generatedSource, programOf } from '../runtime/link.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { choiceTrail } from './helpers/choiceTrail.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { spotsBoard } from './helpers/spotsBoard.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

/**
 * Spots linked to an optional other spot (none for some), with lists compared every way: a list
 * field with a list field and with a list written out, a list property through a spot that is
 * none, an optional entity that is none with none and with a player.
 */
const spots = compileOk(
  `kinds:
  spot:
    props:
      near: list<spot>
      tags: list<number>
      link: spot?
    state:
      owner: player?
      marks: list<number>
  game:
    state:
      total: number
      hits: list<number>
entities:
  - spot: s1
    near: [s2, s3]
    tags: [1, 2]
    link: s2
  - spot: s2
    near: [s1, s3, s4]
    tags: []
  - spot: s3
    near: [s1, s2, s4]
    tags: [1, 2]
    link: s4
  - spot: s4
    near: [s2, s3]
    tags: [2]
    link: s1
rules: |
  fn mine(x: spot): bool = x.owner == me
  action claim(s: spot) "Claim {s}" {
    require s.owner == none else "{s} is taken"
    require s.marks == game.hits or s.tags != [1, 2] or s.link.owner != me else "{s} repeats"
    s.owner = me
    s.marks += [count(s.near where mine(it)), count(s.near where it.marks == s.marks)]
    game.hits += [if s.link.owner == none then 1 else 2]
    if s.link.tags == s.tags or s.link.near == [] or s.link.link == none {
      game.total += 1
    }
    if any(s.near, it.marks == game.hits) or first(s.near where it.owner != me and it.link != none) == s.link {
      game.total += 10
    }
    let ts = s.tags
    if ts == [1, 2] and game.hits != ts {
      game.total += 100
    }
  }
  flow {
    loop max 2 {
      for p in players {
        turn p { offer p: claim }
      }
    }
  }
`,
  { min: 2, max: 2 },
);

describe('generated equality and reads, where a side is never a list or an id always names a record', () => {
  it('compare lists element by element, and anything else with ===', () => {
    const source = generatedSource(spots);
    // `s.owner == none`, `it.owner != me`, `s.link.owner == none`, `s.link.link == none`, `first(…) == s.link`: no list among them.
    expect(source.match(/\(v\d+ (?:===|!==) (?:null|c\.me|v\d+)\)/g)?.length).toBeGreaterThanOrEqual(5);
    // `s.marks == game.hits`, `s.tags != [1, 2]`, `it.marks == s.marks`, `s.link.tags == s.tags`, `s.link.near == []`, `ts == [1, 2]`, `game.hits != ts`, …
    expect(source.match(/H\.same\(/g)?.length).toBeGreaterThanOrEqual(7);
  });

  it('read a spot of a list of spots with no test of its id, and a property through none from its column', () => {
    const source = generatedSource(spots);
    // By the element's id, or by its number where the loop is walked along a column (`numbered`): with no test either way.
    expect(source).toMatch(/for \(v\d+ = 0; v\d+ < v\d+\.length; v\d+\+\+\) \{v(\d+) = v\d+\[v\d+\];[^}]*\(v\d+ = (?:S\[v\1\]|R\[v\d+\[v\d+\]\])\)/);
    expect(source).not.toMatch(/typeof v\d+ === "string" \? \(k\d+\.get/);
  });

  it('play the same games as the interpreter, 60 seeds', () => {
    let games = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const [gen, ref] = ENGINES.map((engine) => choiceTrail(spots, engine, seed));
      expect(gen, `seed ${seed}`).toEqual(ref);
      if (!gen[gen.length - 1].includes('"ok":false')) games++;
    }
    expect(games).toBeGreaterThan(30);
  });
});

/** The budget steps a listing of `spin`'s values takes on `engine` (`candidates`, as a playout lists it), or its refusal and the steps counted then. */
function listed(pack: CompiledPack, engine: EngineName): { values: Value[] | string; steps: number } {
  const st = newGame(pack, { players: 1, seed: 1, engine });
  const prog = programOf(pack, engine);
  const a = prog.actions.spin[0];
  return withStepBudget(() =>
    withFrozenState(() => {
      const c = ctxFor(st, prog, a.slots, st.players[0], null, null);
      try {
        const out: Value[] = [];
        a.candidates(c, a.params[0].domain(c) as Value[], out);
        return { values: out, steps: stepsTaken() };
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        return { values: e.message, steps: stepsTaken() };
      }
    }),
  );
}

/** A game whose `spin` checks each of its values with an `any` of `cond` in an `any` over `game.xs`, `size` numbers long. */
function nested(size: number, cond: string): CompiledPack {
  return compileOk(
    budgetGame(`setup {\n  game.xs = 1..${size}\n}\naction spin(n: number in 1..3) "Spin {n}" {\n  require not any(game.xs, any(game.xs, ${cond})) else "never"\n  game.n = n\n}`),
  );
}

describe('a quiet loop spends its steps when it ends', () => {
  it('counts the steps one at a time would, in a listing that fits the budget', () => {
    // 3 values × (700 + 700 × 700) elements: 1,472,100 steps and more, the nested `any`s never breaking.
    const pack = nested(700, 'it < 0');
    expect(generatedSource(pack)).toMatch(/H\.spendMany\(/);
    const [gen, ref] = ENGINES.map((engine) => listed(pack, engine));
    expect(gen).toEqual(ref);
    expect(gen.values).toEqual([1, 2, 3]);
    expect(gen.steps).toBeGreaterThan(1_470_000);
  });

  it('is refused at the same count, one past the budget, with the same reason', () => {
    // 2 × (1,000 + 1,000,000) steps run out of the budget in the second value's outer loop.
    const pack = nested(1000, 'it < 0');
    const [gen, ref] = ENGINES.map((engine) => listed(pack, engine));
    expect(gen).toEqual(ref);
    expect(gen.values).toMatch(/step budget/);
    expect(gen.steps).toBe(STEP_BUDGET + 1);
    const [byGen, byRef] = ENGINES.map((engine) => {
      const st = newGame(pack, { players: 1, seed: 1, engine });
      const before = JSON.stringify(st);
      let refusal = '';
      try {
        legalChoices(st);
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        refusal = `${e.message} at ${e.where}`;
      }
      expect(JSON.stringify(st)).toBe(before);
      return refusal;
    });
    expect(byGen).toBe(byRef);
    expect(byGen).toMatch(/step budget/);
  });

  it('spends each step as it goes where its body spends many steps in one call, refused at the same count past the budget', () => {
    // `game.xs` is 1,000 numbers, `game.ys` 1,000 to 2,000 others: the first `any` looks through all of `game.ys` for each
    // element, and runs out of the budget inside a call that looks at a whole list, with the count that call leaves.
    const spin = (ys: number, cond: string) =>
      compileOk(
        budgetGame(`setup {
  game.xs = 1..1000
  game.ys = 1001..${1000 + ys}
}
action spin(k: number in 1..3) "Spin {k}" {
  require not any(game.xs, ${cond}) else "never"
  game.n = k
}`),
      );
    for (const [ys, cond] of [[1234, 'it in game.ys'], [2001, 'it in game.ys'], [1500, 'count(game.ys - [it]) == 0'], [2000, 'position(game.ys, it) > 0']] as const) {
      const [gen, ref] = ENGINES.map((engine) => listed(spin(ys, cond), engine));
      expect(gen, cond).toEqual(ref);
      expect(gen.values, cond).toMatch(/step budget/);
      expect(gen.steps, cond).toBeGreaterThan(STEP_BUDGET + 1);
    }
  });

  it('spends each step as it goes where its body could be refused otherwise, so the step budget still refuses first', () => {
    // `it * k` overflows from the 49,936th number of `game.ys` on. After the first `let` (1,400 + 1,400 × 1,400 steps) fewer
    // steps than that are left: the budget runs out first. Were that loop's steps spent when it ends, the overflow would
    // be refused instead, as it is with no `let` before it.
    const k = [...Array(20).fill('1000000000000000'), '3600'].join(' * ');
    const spin = (before: string) =>
      compileOk(
        budgetGame(`setup {
  game.xs = 1..1400
  game.ys = 1..100000
}
action spin "Spin" {
  ${before}
  let k = ${k}
  if any(game.ys, it * k < 0) {
    game.n = 1
  }
}`),
      );
    const refusals = (pack: CompiledPack) =>
      ENGINES.map((engine) => {
        const st = newGame(pack, { players: 1, seed: 1, engine });
        const r = apply(st, 'spin');
        return r.ok ? 'applied' : r.reason;
      });
    const late = spin('game.n = count(game.xs where any(game.xs, it < 0))');
    expect(generatedSource(late)).toMatch(/H\.spend\(\); v\d+ = v\d+\[v\d+\];/);
    const [gen, ref] = refusals(late);
    expect(gen).toBe(ref);
    expect(gen).toMatch(/step budget/);
    const [alone, aloneRef] = refusals(spin(''));
    expect(alone).toBe(aloneRef);
    expect(alone).toMatch(/not a finite number/);
  });

  it('refuses a choice the same way, the game left as it was', () => {
    const pack = compileOk(budgetGame(`setup {\n  game.xs = 1..1500\n}\naction spin "Spin" {\n  if all(game.xs, all(game.xs, it > 0)) {\n    game.n = 1\n  }\n}`));
    const [gen, ref] = ENGINES.map((engine) => {
      const st = newGame(pack, { players: 1, seed: 1, engine });
      const r = apply(st, legalChoices(st).find((c) => c.action === 'spin')!.id);
      return r.ok ? 'applied' : r.reason;
    });
    expect(gen).toBe(ref);
    expect(gen).toMatch(/step budget/);
  });
});

/**
 * Spots claimed in playouts, each claim writing two fields of a spot's record and then refused when
 * the spot is crowded (the record put back), with walked reads of every kind after it: along a
 * property's list (`s.near`), along the kind's list (`spots`) and along a list of each of its
 * elements (`any(it.near, …)` in a loop over `spots`).
 */
const crowded = compileOk(
  spotsBoard(`action claim(s: spot) "Claim {s}" {
  require s.owner == none else "{s} is taken"
  s.owner = me
  s.hits += 1
  require count(s.near where it.owner == me) < 2 else "{s} is crowded"
  game.total += count(spots where any(it.near, it.owner == me)) + count(spots where it.hits > 0)
}
action pass "Pass" { }
flow {
  loop max 4 {
    for p in players {
      turn p { offer p: claim, pass }
    }
  }
}`),
  { min: 2, max: 2 },
);

describe('records read by number along a walk', () => {
  it('read by number along a list property, a list of the rules and a list of each element of it', () => {
    const source = generatedSource(crowded);
    expect(source).toMatch(/const R = H\.records\(c\.st\);/);
    expect(source).toMatch(/\(v\d+ = R\[v\d+\[v\d+\]\]\)/);
    expect(source).toMatch(/\(v\d+ = R\[k\d+\[v\d+\]\]\)/);
    // A list of each element: its row of numbers taken before the inner loop, by the outer loop's index.
    expect(source).toMatch(/(v\d+) = k\d+\[v\d+\];.*\(v\d+ = R\[\1\[v\d+\]\]\)/);
  });

  it('play the same playouts as the interpreter, claims refused and put back in place, 40 seeds', () => {
    let refused = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const [gen, ref] = ENGINES.map((engine) => {
        const trail: string[] = [];
        const st = newGame(crowded, { players: 2, seed, engine });
        let rng = seedState(`crowded ${seed}`);
        for (let step = 0; step < 60 && !st.over; step++) {
          const n = playoutChoices(st);
          const r = nextRandom(rng);
          rng = r.state;
          const res = playoutApply(st, Math.floor(r.value * n));
          if (!res.ok) refused++;
          trail.push(`${res.ok ? 'ok' : res.reason} ${JSON.stringify(st)}`);
        }
        return trail;
      });
      expect(gen, `seed ${seed}`).toEqual(ref);
    }
    expect(refused).toBeGreaterThan(10);
  });
});
