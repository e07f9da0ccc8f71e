/**
 * A pack played by games that name no engine warms on the interpreter, then goes on with generated
 * code for the parts of its rules that ran often meanwhile and the interpreter's closures for the
 * rest (runtime/link.ts `warmed`): the games are the interpreter's, choice for choice, and fewer
 * functions are generated than the generated engine's for the whole pack.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { withEngine } from '../runtime/index.ts';
import { generatedFunctions, programOf } from '../runtime/link.ts';
import { playGame, type GameSummary } from '../simulate/playout.ts';

function packIn(dir: string): CompiledPack {
  const files = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
  const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
  if (!pack) throw new Error(`${dir} does not compile`);
  return pack;
}

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
