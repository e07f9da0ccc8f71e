/**
 * A driven listing finds its values in the list the last listing of its drive left, and a drive's
 * listings serve the next drive (runtime/drivenPlayout.ts `listingTaken`): a list a state's listing
 * holds, where a drive stopped, not exact, is never written again. Games stopped so, then other
 * games driven through the same listings, go on from the choices each was left, as the same games
 * stepped do.
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

/** `st` played on by stepping, each choice `pick`'s, to its end; its JSON. */
function steppedToEnd(st: GameState, pick: (n: number) => number): string {
  while (!st.over) {
    const n = playoutChoices(st);
    expect(playoutApply(st, pick(n)).ok).toBe(true);
  }
  return JSON.stringify(st);
}

describe('a listing a stopped game holds is not written by later drives', () => {
  for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
    it(dir, () => {
      const pack = compile(readPackFolder(dir)).pack!;
      for (const engine of ['interpreter', 'generated'] as const) {
        for (let seed = 1; seed <= 12; seed++) {
          // The same game stepped throughout: its picks after the stop are asked by stepping alike.
          const control = newGame(pack, { players: 2, seed, engine });
          const pc = picks(seed);
          for (let i = 0; i < 3 && !control.over; i++) expect(playoutApply(control, pc(playoutChoices(control))).ok).toBe(true);
          // Three picks driven, the game left at its next prompt, listed: its listing is the drive's.
          const left = newGame(pack, { players: 2, seed, engine });
          const pl = picks(seed);
          let made = 0;
          expect(playDriven(left, (n) => (made++ < 3 ? pl(n) : -1), { exact: false }).ok).toBe(true);
          // Other games driven to their ends, through the listings that drive gave back.
          for (let other = 100; other < 104; other++) {
            const g = newGame(pack, { players: 2, seed: other, engine });
            const po = picks(other);
            expect(playDriven(g, (n) => po(n)).ok).toBe(true);
          }
          // The stopped game's next pick is made of the listing it was left, without listing again.
          if (left.over) continue;
          const n = playoutChoices(control);
          const k = pc(n);
          pl(n);
          expect(playoutApply(left, k).ok, `${dir} ${engine} seed ${seed}`).toBe(true);
          expect(playoutApply(control, k).ok).toBe(true);
          expect(JSON.stringify(left), `${dir} ${engine} seed ${seed}`).toBe(JSON.stringify(control));
          expect(steppedToEnd(left, pl)).toBe(steppedToEnd(control, pc));
        }
      }
    });
  }
});
