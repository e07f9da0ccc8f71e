/**
 * The bench's pack player (bench/packPlayout.ts) on a game that waits where no choice is open
 * (test/packs/odd-values): an error that says so, by `legalChoices` and `apply` and in playout
 * mode alike. Driven, it went round for ever: `playDriven` ends such a game at once (`none`), and
 * the player asked it again.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { packPlayer } from '../bench/packPlayout.ts';
import type { EngineName } from '../runtime/index.ts';

describe('the bench playing a game that waits with no choice open', () => {
  const pack = compile(readPackFolder('test/packs/odd-values')).pack!;
  for (const engine of ['interpreter', 'generated'] as EngineName[]) {
    for (const playout of [false, true]) {
      it(`${engine}, ${playout ? 'driven' : 'applied'}: says so`, () => {
        expect(() => packPlayer(pack, 2, engine, playout)(1)).toThrow(/^no choice is open at step \d+, and the game is not over$/);
      });
    }
  }
});
