/**
 * A pack played by games that name no engine warms on the interpreter, then goes on with generated
 * code for the parts of its rules that ran often meanwhile and the interpreter's closures for the
 * rest (runtime/link.ts `warmed`): the games are the interpreter's, choice for choice, and fewer
 * functions are generated than the generated engine's for the whole pack. A part of the rules first
 * run after warming is interpreted in the warmed program, to the same states and refusals, at the
 * edge of the budget too.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { apply, legalChoices, newGame, withEngine, type EngineName, type GameState } from '../runtime/index.ts';
import { generatedFunctions, programOf } from '../runtime/link.ts';
import { playGame, type GameSummary } from '../simulate/playout.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** A simulation's games from seed 1 on a fresh pack, until it has warmed and `after` more. */
function warmedGames(pack: CompiledPack, players: number, after: number): GameSummary[] {
  const out: GameSummary[] = [];
  let turned = 0;
  for (let seed = 1; !turned || seed <= turned + after; seed++) {
    out.push(playGame(pack, { players, seed, agents: 'random', maxSteps: 5000 }));
    if (!turned && programOf(pack).warming?.next) turned = seed;
    if (seed > 500) throw new Error('the pack never warmed');
  }
  return out;
}

describe('a warmed pack generates the parts of its rules that ran often', () => {
  // RULEBOOK_ENGINE names an engine for every game, and none then warms.
  for (const [dir, players] of [
    ['content/smallworld-wow', 2],
    ['content/wotlk', 2],
  ] as const) {
    it.skipIf(!!process.env.RULEBOOK_ENGINE)(`${dir}: the interpreter's games, on fewer generated functions`, { timeout: 120_000 }, () => {
      const pack = packIn(dir);
      const games = warmedGames(pack, players, 8);
      const reference = packIn(dir);
      const interpreted = withEngine('interpreter', () => games.map((g) => playGame(reference, { players, seed: g.seed, agents: 'random', maxSteps: 5000 })));
      expect(games).toEqual(interpreted);
      const warmed = programOf(pack).warming!.next!;
      const some = generatedFunctions(warmed)!;
      expect(some).toBeGreaterThan(0);
      expect(some).toBeLessThan(generatedFunctions(programOf(pack, 'generated'))!);
    });
  }
});

/**
 * `spin` runs while the pack warms; `rare` never does (its walks nested in a sum), nor `blow`, which
 * spends all but about `edge` steps of a choice's budget, so that it is refused at some states and
 * not at others.
 */
const rareYaml = (edge: number) => `kinds:
  spot:
    props:
      near: list<spot>
      worth: number
  game:
    state:
      n: number
      xs: list<number>
entities:
  - spot: s1
    near: [s2, s3]
    worth: 2
  - spot: s2
    near: [s1, s3]
    worth: 4
  - spot: s3
    near: [s1]
    worth: 1
rules: |
  action spin(s: spot) "Spin {s}" {
    require sum(1..30, it) > 0 else "no"
    game.n += sum(s.near, it.worth) + sum(1..20, it % 3)
  }
  action rare(s: spot) "Rare {s}" {
    require game.n >= 0 else "never"
    game.n += sum(s.near, it.worth * 1000 + sum(it.near, it.worth * 7)) + count(spots where it.worth > s.worth)
    game.xs += [highest(s.near, it.worth).worth]
  }
  action blow "Blow" {
    game.n += sum(1..100, count(1..19990 where it % 2 == 0)) + count(1..${edge} where it > 0)
  }
  flow {
    loop max 6 {
      for p in players {
        turn p { offer p: spin, rare, blow }
      }
    }
  }
`;

/** A game by a seeded walk over the choices (`spin` only unless `rareOk`), each choice's state and counts of uses, or its refusal; a refused choice is followed by a spin. */
function rareGame(pack: CompiledPack, seed: number, engine: EngineName | undefined, rareOk: boolean): string[] {
  const out: string[] = [];
  let st: GameState = newGame(pack, { players: 2, seed, engine });
  let k = seed;
  while (!st.over) {
    const legal = legalChoices(st).filter((c) => rareOk || c.action === 'spin');
    k = (k * 7 + 3) % 17;
    const pick = legal[k % legal.length];
    const r = apply(st, pick);
    out.push(`${pick.action} ${JSON.stringify(r.ok ? { e: r.state.e, used: r.state.used, usedGame: r.state.usedGame } : r)}`);
    if (r.ok) st = r.state;
    else {
      const spun = apply(st, legal.find((c) => c.action === 'spin')!);
      if (!spun.ok) throw new Error(spun.reason);
      st = spun.state;
    }
  }
  return out;
}

describe('a part of the rules first run after warming', () => {
  for (const edge of [896, 897]) {
    it.skipIf(!!process.env.RULEBOOK_ENGINE)(`is interpreted, to the interpreter's states and refusals (budget edge ${edge})`, { timeout: 120_000 }, () => {
      const pack = compileOk(rareYaml(edge), { min: 2, max: 2 });
      for (let seed = 1; !programOf(pack).warming?.next; seed++) {
        if (seed > 500) throw new Error('the pack never warmed');
        rareGame(pack, seed, undefined, false);
      }
      const warmed = programOf(pack).warming!.next!;
      expect(generatedFunctions(warmed)).toBeGreaterThan(0);
      expect(generatedFunctions(warmed)).toBeLessThan(generatedFunctions(programOf(pack, 'generated'))!);
      const picks = { rare: 0, blow: 0, refused: 0 };
      for (let seed = 1000; seed < 1020; seed++) {
        const [ours, interpreted, generated] = [undefined, 'interpreter' as const, 'generated' as const].map((engine) => rareGame(pack, seed, engine, true));
        expect(ours).toEqual(interpreted);
        expect(generated).toEqual(interpreted);
        for (const step of ours) {
          if (step.startsWith('rare ')) picks.rare++;
          if (step.startsWith('blow ')) picks.blow++;
          if (step.startsWith('blow ') && step.includes('"ok":false')) picks.refused++;
        }
      }
      expect(picks.rare).toBeGreaterThan(0);
      // At the edge, `blow` is refused at some states and done at others.
      expect(picks.refused).toBeGreaterThan(0);
      expect(picks.refused).toBeLessThan(picks.blow);
    });
  }
});
