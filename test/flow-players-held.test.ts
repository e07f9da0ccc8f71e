/**
 * A generated `for` over the players holds the state's list rather than a copy of it each time the
 * loop begins (nothing changes a state's players in place), and copies it only into the frame a
 * suspension leaves: that frame keeps a list of its own, equal to the players, as the interpreter's
 * `runFor` keeps its copy, and the game is the same byte for byte, choice by choice, on either engine.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { packIn } from './helpers/packFolder.ts';

/** The frames of `st`'s prompt that go on with a loop over a list, with their lists. */
function loopLists(st: GameState): unknown[][] {
  const out: unknown[][] = [];
  for (const f of st.prompt?.frames ?? []) if (f.loop && 'items' in f.loop) out.push(f.loop.items);
  return out;
}

describe('a loop over the players', () => {
  for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
    it(`${dir}: holds the state's list, and a suspension's frame a copy of its own`, () => {
      const pack = packIn(dir);
      const source = generatedSource(pack);
      // The flow's loops over the players (`c.st.players` is read by the one expression function that gives them).
      const players = /const (f\d+) = function \(c\) \{const E = c\.env;return c\.st\.players;\};/.exec(source);
      expect(players).not.toBeNull();
      const loops = source.match(new RegExp(`const l\\d+ = \\(${players![1]}\\(c\\) \\?\\? \\[\\]\\)[^;]*;`, 'g')) ?? [];
      expect(loops.length).toBeGreaterThan(0);
      for (const l of loops) expect(l).not.toContain('.slice()');

      const engines: EngineName[] = ['generated', 'interpreter'];
      const [gen, ref] = engines.map((engine) => newGame(pack, { players: 2, seed: 3, engine }));
      let games: GameState[] = [gen, ref];
      for (let move = 0; move < 12 && !games[0].over; move++) {
        expect(JSON.stringify(games[0])).toBe(JSON.stringify(games[1]));
        const lists = loopLists(games[0]);
        expect(lists.length).toBeGreaterThan(0);
        for (const items of lists) {
          expect(items).toEqual(games[0].players);
          expect(items).not.toBe(games[0].players);
        }
        const choices = legalChoices(games[0]);
        const pick = choices[(move * 3) % choices.length].id;
        games = games.map((st) => {
          const r = apply(st, pick);
          expect(r.ok).toBe(true);
          return r.state;
        });
      }
      expect(JSON.stringify(games[0])).toBe(JSON.stringify(games[1]));
    });
  }
});
