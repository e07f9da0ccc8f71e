/**
 * The generated engine (runtime/codegen/) against the interpreter, its reference: the same seeded
 * games of every shipped pack and every bench pack, played side by side, must give the same state,
 * the same legal choices (with their labels), the same answer to a refused choice and the same
 * card holders and estimates, byte for byte, at every step; and the runtime's hostile checks (tampered choices,
 * replays, budgets) must hold under each engine, with the same refusals.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { apply, cardHolders, legalChoices, newGame, standings, viewFor, withEngine, type EngineName, type GameState } from '../runtime/index.ts';
import { estimates } from '../runtime/estimate.ts';
import { generatedFunctions, programOf } from '../runtime/link.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { checkRuntimeModel } from '../scripts/runtimeModel.ts';
import { budgetGame as game, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];
const STEPS = Number(process.env.DIFFERENTIAL_STEPS ?? 120);

/** What a step shows of a game: its state, its legal choices, a refused choice's answer, its holders. */
function steps(pack: CompiledPack, engine: EngineName, players: number, seed: number): string[] {
  const out: string[] = [];
  let st: GameState = newGame(pack, { players, seed, engine });
  out.push(JSON.stringify(st));
  let rng = seedState(`differential ${seed}`);
  for (let step = 0; step < STEPS && !st.over; step++) {
    const legal = legalChoices(st);
    out.push(JSON.stringify(legal));
    if (!legal.length) break;
    const r = nextRandom(rng);
    rng = r.state;
    const pick = Math.floor(r.value * legal.length);
    const other = apply(st, legal[(pick + 1) % legal.length].id);
    out.push(JSON.stringify(other.ok ? other.state : other));
    const res = apply(st, legal[pick]);
    if (!res.ok) throw new Error(`a listed choice was refused: ${res.reason}`);
    st = res.state;
    out.push(JSON.stringify(st), JSON.stringify(cardHolders(st)), JSON.stringify(estimates(pack, st) ?? null));
  }
  out.push(JSON.stringify(viewFor(st, st.players[0])), JSON.stringify(standings(st)));
  return out;
}

const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];

describe('the generated engine plays every game as the interpreter does, step by step', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 120_000 }, () => {
      const pack = packIn(dir);
      const counts = [...new Set([pack.players.min, Math.min(pack.players.max, pack.players.min + 2)])];
      let compared = 0;
      for (const players of counts) {
        for (const seed of [1, 2]) {
          const [gen, ref] = ENGINES.map((engine) => steps(pack, engine, players, seed));
          const at = gen.findIndex((x, i) => x !== ref[i]);
          expect(at, `${dir} players=${players} seed=${seed}: first difference`).toBe(-1);
          expect(gen.length).toBe(ref.length);
          compared += gen.length;
        }
      }
      expect(compared).toBeGreaterThan(4);
    });
  }
});

describe('a game that names no engine', () => {
  /** Games of fixed picks from seed 1: `games` of them, or, by the default engine, until it is picked and two more. */
  const trail = (pack: CompiledPack, players: number, engine?: EngineName, games?: number) => {
    const out: string[] = [];
    let picked = 0;
    for (let seed = 1; games === undefined ? !picked || seed <= picked + 2 : seed <= games; seed++) {
      let st = newGame(pack, { players, seed, engine });
      while (!st.over && st.choices.length < 300) {
        const legal = legalChoices(st, { labels: false });
        const r = apply(st, legal[(seed * 7 + st.choices.length * 3) % legal.length]);
        if (!r.ok) throw new Error(r.reason);
        st = r.state;
      }
      out.push(JSON.stringify(st));
      if (!picked && programOf(pack).warming?.next) picked = seed;
    }
    return out;
  };

  // RULEBOOK_ENGINE names an engine for every game, and none then warms.
  it.skipIf(!!process.env.RULEBOOK_ENGINE)('is played by the interpreter, then, its rules doing much per choice, by the generated code, mid-game, the same', { timeout: 120_000 }, () => {
    const heavy = packIn('content/wroth');
    const warming = programOf(heavy);
    expect(warming.warming?.next).toBeUndefined();
    // Every program has the fields of the interpreter's, in its order (one shape for V8).
    expect(Object.keys(warming)).toEqual(Object.keys(programOf(heavy, 'interpreter')));
    const auto = trail(heavy, 2);
    expect(generatedFunctions(warming.warming!.next!)).toBeGreaterThan(0);
    expect(auto).toEqual(trail(heavy, 2, 'interpreter', auto.length));
  });

  it.skipIf(!!process.env.RULEBOOK_ENGINE)('stays on the interpreter when its rules do next to nothing per choice (relay: 2 steps), turns where they do a dozen (tic-tac-toe) or more (Connect Four)', () => {
    const relay = packIn('test/packs/relay');
    trail(relay, 2);
    expect(programOf(relay).warming?.next).toBe(programOf(relay, 'interpreter'));
    for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
      const pack = packIn(dir);
      const auto = trail(pack, 2);
      expect(generatedFunctions(programOf(pack).warming!.next!), dir).toBeGreaterThan(0);
      expect(auto).toEqual(trail(pack, 2, 'interpreter', auto.length));
    }
  });

  it.skipIf(!!process.env.RULEBOOK_ENGINE)('stays on the interpreter where making code is forbidden (a content security policy)', { timeout: 120_000 }, () => {
    const pack = packIn('content/wroth');
    const real = globalThis.Function;
    globalThis.Function = new Proxy(real, {
      construct() {
        throw new EvalError('code generation from strings disallowed for this context');
      },
    });
    try {
      trail(pack, 2);
    } finally {
      globalThis.Function = real;
    }
    expect(programOf(pack).warming?.next).toBe(programOf(pack, 'interpreter'));
  });
});

describe('the runtime under tampered choices and replays, under each engine', () => {
  for (const name of readdirSync('content')) {
    for (const engine of ENGINES) {
      it(`${name}, ${engine}`, { timeout: 120_000 }, () => {
        const pack = packIn(join('content', name));
        const stats = withEngine(engine, () => checkRuntimeModel(pack, { runs: 2, seed: 20261126, maxCommands: 15 }));
        expect(stats.sequences).toBeGreaterThanOrEqual(2);
      });
    }
  }
});

describe('a hostile pack runs out of budget at the same statement under each engine', () => {
  const cases: Record<string, string> = {
    'an any over a range inside a where over another': `action spin "Spin" {\n  game.n = count((1..100000) where any(1..100000, it < 0))\n}`,
    'a function calling the one before twice, forty deep': `${Array.from({ length: 40 }, (_, i) => `fn f${i + 1}(): number = ${i ? `f${i}() + f${i}()` : '1'}`).join('\n')}\naction spin "Spin" {\n  game.n = f40()\n}`,
    'a list doubled forty times': `action spin "Spin" {\n  game.xs = [1]\n  repeat 40 {\n    game.xs += game.xs\n  }\n}`,
    'a text doubled forty times': `action spin "Spin" {\n  game.s = "ab"\n  repeat 40 {\n    game.s = game.s + game.s\n  }\n}`,
    'a number past the largest': `action spin "Spin" {\n  game.n = 2\n  repeat 2000 {\n    game.n = game.n * game.n\n  }\n}`,
    'a sum over a long range in a loop': `action spin "Spin" {\n  repeat 1000 {\n    game.n += sum(1..5000, it)\n  }\n}`,
  };
  for (const [what, rules] of Object.entries(cases)) {
    it(what, () => {
      const pack = compileOk(game(rules));
      const [gen, ref] = ENGINES.map((engine) => {
        const st = newGame(pack, { players: 1, seed: 1, engine });
        const before = JSON.stringify(st);
        const r = apply(st, 'spin');
        expect(JSON.stringify(st)).toBe(before);
        expect(r.ok).toBe(false);
        return r.ok ? null : { reason: r.reason, rule: r.rule, budget: r.budget };
      });
      expect(gen).toEqual(ref);
      expect(gen?.reason).toBeTruthy();
    });
  }
});
