/**
 * A choice applied to the state itself writes the records the state owns where they are, noting each
 * field's value before (`writableRecord`, `undo.ts`): a choice refused after it changed piles in
 * place (`shuffle`, `draw`, `put`, `remove`), wrote fields and made a record's field anew leaves the
 * state byte for byte as it was, on both engines, at the game's first choice (a new game owns every
 * record) and later (records it copied from a state it shares with, records it wrote before); and a
 * state sharing records with it is never changed.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, legalChoices, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const pack = compileOk(`kinds:
  game:
    state:
      n: number
      xs: list<number>
rules: |
  action grow "Grow" {
    game.n += 1
    put game.n on top of game.xs
  }
  action spin "Spin" {
    game.n = 50
    put game.n on top of game.xs
    shuffle game.xs
    draw x from top of game.xs
    put x on bottom of game.xs
    remove 1 from game.xs
    game.xs += [7, 8]
    require game.n > 99 else "not yet"
  }
  flow {
    loop max 20 {
      for p in players {
        turn p { offer p: grow, spin }
      }
    }
  }
`);

const engines: EngineName[] = ['interpreter', 'generated'];

/** `grow` taken `times` times by whoever is asked, in place. */
function grown(st: GameState, times: number): void {
  for (let i = 0; i < times; i++) {
    const r = applyInPlace(st, 'grow');
    if (!r.ok) throw new Error(r.reason);
  }
}

describe('a choice refused in place puts back every field it wrote', () => {
  for (const engine of engines) {
    it(`${engine}: at the first choice, after some, and on a state sharing records`, () => {
      const st = newGame(pack, { players: 2, seed: 3, engine });
      const first = JSON.stringify(st);
      expect(applyInPlace(st, 'spin')).toMatchObject({ ok: false, reason: 'not yet' });
      expect(JSON.stringify(st)).toBe(first);

      grown(st, 5);
      const later = JSON.stringify(st);
      expect((st.e.game.xs as number[]).length).toBe(5);
      expect(applyInPlace(st, 'spin')).toMatchObject({ ok: false, reason: 'not yet' });
      expect(JSON.stringify(st)).toBe(later);

      // A copy shares its records with `st`: neither changes the other's.
      const copy = (apply(st, 'grow') as { state: GameState }).state;
      const copyJson = JSON.stringify(copy);
      grown(st, 2);
      expect(JSON.stringify(copy)).toBe(copyJson);
      const mine = JSON.stringify(st);
      grown(copy, 3);
      expect(applyInPlace(copy, 'spin')).toMatchObject({ ok: false, reason: 'not yet' });
      expect(JSON.stringify(st)).toBe(mine);
      expect((copy.e.game.xs as number[]).length).toBe(9);
      expect(legalChoices(copy).map((c) => c.id)).toEqual(['grow', 'spin']);
    });

    it(`${engine}: in playout mode, the same`, () => {
      const st = newGame(pack, { players: 2, seed: 4, engine });
      for (let i = 0; i < 4; i++) {
        expect(playoutChoices(st)).toBe(2);
        expect(playoutApply(st, 0).ok).toBe(true);
      }
      const before = JSON.stringify(st);
      expect(playoutChoices(st)).toBe(2);
      expect(playoutApply(st, 1)).toMatchObject({ ok: false, reason: 'not yet' });
      expect(JSON.stringify(st)).toBe(before);
      expect(playoutChoices(st)).toBe(2);
      expect(playoutApply(st, 0).ok).toBe(true);
      expect(st.e.game.xs).toEqual([5, 4, 3, 2, 1]);
    });
  }
});
