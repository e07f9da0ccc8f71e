/**
 * A drive writes each offer it lists and picks into one prompt object (`reuseOffersOf`): the offer
 * where it stops, not exact, is the state's from then on, and no later drive of that state writes
 * into it. Driven a few choices at a time, to the end, a game is the stepped one, and each prompt it
 * stopped at is as it was left.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { newGame, playDriven, playoutApply, playoutChoices, type GameState } from '../runtime/index.ts';

/** Picks of a seed, the same whichever way they are asked. */
function picks(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

describe('a drive stopped at an offer leaves that offer to the state', () => {
  for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
    it(dir, () => {
      const pack = compile(readPackFolder(dir)).pack!;
      for (const engine of ['interpreter', 'generated'] as const) {
        for (let seed = 1; seed <= 20; seed++) {
          const a = newGame(pack, { players: 2, seed, engine });
          const pa = picks(seed);
          while (!a.over) {
            const n = playoutChoices(a);
            expect(playoutApply(a, pa(n)).ok).toBe(true);
          }
          const b = newGame(pack, { players: 2, seed, engine });
          const pb = picks(seed);
          const kept: Array<{ prompt: GameState['prompt']; json: string }> = [];
          while (!b.over) {
            let left = 2;
            const end = playDriven(b, (n) => (left-- > 0 ? pb(n) : -1), { exact: false });
            expect(end.ok).toBe(true);
            if (b.prompt) kept.push({ prompt: b.prompt, json: JSON.stringify(b.prompt) });
          }
          expect(JSON.stringify(b), `${dir} ${engine} seed ${seed}`).toBe(JSON.stringify(a));
          expect(new Set(kept.map((k) => k.prompt)).size).toBe(kept.length);
          for (const k of kept) expect(JSON.stringify(k.prompt)).toBe(k.json);
        }
      }
    });
  }
});
