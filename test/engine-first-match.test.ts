/**
 * `first(xs where …)` stops at its first match (runtime/firstMatch.ts) in both engines, giving what
 * filtering the whole list gives; a condition that rolls a die still sees every element, so the
 * generator is drawn as often as before.
 */
import { describe, expect, it } from 'vitest';
import { newGame, type EngineName } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const game = (setup: string) => `dice:
  d6: [1, 2, 3, 4, 5, 6]
kinds:
  game:
    state:
      found: number?
      none: number?
      rolled: number?
rules: |
  setup {
    ${setup.trim().replace(/\n/g, '\n    ')}
  }
  flow { }
`;

describe('first(xs where …)', () => {
  for (const engine of ['interpreter', 'generated'] as EngineName[]) {
    it(`is the first element that passes, or none (${engine})`, () => {
      const pack = compileOk(game(`game.found = first([1, 5, 2, 7, 9] where it > 4)\ngame.none = first([1, 2] where it > 4)`), { min: 1, max: 1 });
      const g = newGame(pack, { players: 1, seed: 1, engine }).e.game;
      expect(g.found).toBe(5);
      expect(g.none).toBe(null);
    });

    it(`rolls for every element when its condition rolls (${engine})`, () => {
      const withFirst = compileOk(game(`game.rolled = first([1, 2, 3, 4, 5, 6, 7, 8] where roll(d6) > 0)`), { min: 1, max: 1 });
      const filtered = compileOk(game(`game.rolled = count([1, 2, 3, 4, 5, 6, 7, 8] where roll(d6) > 0)`), { min: 1, max: 1 });
      const a = newGame(withFirst, { players: 1, seed: 3, engine });
      const b = newGame(filtered, { players: 1, seed: 3, engine });
      expect(a.e.game.rolled).toBe(1);
      expect(b.e.game.rolled).toBe(8);
      expect(a.rng).toEqual(b.rng);
    });
  }
});
