/**
 * An action's body as a driven choice of it runs it (`ActionCode.drivenBody`, codegen/emitFlow.ts
 * `pickedBlock`): the generated body with the leading `require`s its listing just checked passed
 * over where that is exact. Run on a value the listing found, it leaves the state its body leaves
 * and counts the steps its body counts, under every budget from none to enough: a passed `require`
 * still spends its statement's step, and one whose condition spends steps of its own (a loop) is
 * run, not passed.
 */
import { describe, expect, it } from 'vitest';
import { stepsTaken, withStepBudget } from '../runtime/budget.ts';
import { ctxFor, runBlock } from '../runtime/engine.ts';
import { withFrozenState } from '../runtime/holders.ts';
import { newGame, type EngineName, type Value } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import type { BlockCode } from '../runtime/program.ts';
import { Refusal } from '../runtime/refusal.ts';
import { compileOk } from './helpers/inlinePack.ts';

/**
 * Spots with weights: a claim is refused on a spot taken or weighing nothing. The first `require`
 * reads a field (no step of its own), the second walks the weights (a step each), the third reads
 * the `let` before them.
 */
const spots = compileOk(
  `kinds:
  spot:
    props:
      weights: list<number>
    state:
      owner: player?
  game:
    state:
      n: number
entities:
  - spot: s1
    weights: [0, 2, 5]
  - spot: s2
    weights: [0, 0]
  - spot: s3
    weights: [1, 1, 1, 1]
  - spot: s4
    weights: [3]
rules: |
  setup {
    s4.owner = first(players)
  }
  action claim(s: spot) "Claim {s}" {
    let w = count(s.weights)
    require s.owner == none else "{s} is taken"
    require any(s.weights, it > 0) else "{s} weighs nothing"
    require w > 0 else "{s} has no weights"
    s.owner = me
    game.n += w
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: claim }
      }
    }
  }
`,
  { min: 2, max: 2 },
);

/** The values the listing of `claim` finds at the game's start. */
function listedValues(engine: EngineName): Value[] {
  const st = newGame(spots, { players: 2, seed: 1, engine });
  const prog = programOf(spots, engine);
  const a = prog.actions.claim[0];
  return withFrozenState(() => {
    const c = ctxFor(st, prog, a.slots, st.players[0]);
    const out: Value[] = [];
    a.candidates(c, a.params[0].domain(c) as Value[], out);
    return out;
  });
}

/** `block` of `claim` run on `value` at the game's start under a budget of `budget` steps: its signal or refusal, the steps counted, the state after. */
function ran(engine: EngineName, which: (a: { body: BlockCode; drivenBody: BlockCode }) => BlockCode, value: Value, budget: number): { end: number | string; steps: number; state: string } {
  const st = newGame(spots, { players: 2, seed: 1, engine });
  const prog = programOf(spots, engine);
  const a = prog.actions.claim[0];
  return withStepBudget(() => {
    const c = ctxFor(st, prog, a.slots, st.players[0]);
    c.env[0] = value;
    let end: number | string;
    try {
      end = runBlock(which(a), 0, c);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      end = `${e.message} (${e.budget}) ${e.where}`;
    }
    return { end, steps: stepsTaken(), state: JSON.stringify(st) };
  }, budget);
}

describe('a driven choice runs its body without the requires its listing checked', () => {
  it('passes over the requires that spend no step, on the generated engine alone', () => {
    const gen = programOf(spots, 'generated').actions.claim[0];
    expect(gen.drivenBody).not.toBe(gen.body);
    expect(gen.drivenBody.whole).toBeDefined();
    expect(gen.drivenBody.whole).not.toBe(gen.body.whole);
    // A frame a suspension leaves names the body's block and places, which the picked body shares.
    expect(gen.drivenBody.id).toBe(gen.body.id);
    expect(gen.drivenBody.stmts).toBe(gen.body.stmts);
    const ref = programOf(spots, 'interpreter').actions.claim[0];
    expect(ref.drivenBody).toBe(ref.body);
  });

  it('leaves the state and counts the steps of the body, under every budget', () => {
    const values = listedValues('generated');
    expect(values).toEqual(listedValues('interpreter'));
    expect(values).toEqual(['s1', 's3']);
    for (const value of values) {
      const enough = ran('interpreter', (a) => a.body, value, 1_000_000);
      expect(enough.end).toBe(0);
      // Six statements, and `any` walks the weights up to the first above none.
      expect(enough.steps).toBeGreaterThan(6);
      for (let budget = 0; budget <= enough.steps; budget++) {
        const where = `${value}, a budget of ${budget} steps`;
        const want = ran('interpreter', (a) => a.body, value, budget);
        expect(ran('generated', (a) => a.drivenBody, value, budget), where).toEqual(want);
        expect(ran('generated', (a) => a.body, value, budget), where).toEqual(want);
        expect(ran('interpreter', (a) => a.drivenBody, value, budget), where).toEqual(want);
        if (budget < enough.steps) expect(want.end, where).toMatch(/\(step\)/);
      }
    }
  });
});
