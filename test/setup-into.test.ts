/**
 * A new game made in a finished game's objects (`NewGameOptions.into`): its kept setup's records
 * are put in that game's entity table, which the new game takes. The games so made are byte for
 * byte the games their setup run anew makes, also played to their end, on both engines, past the
 * copies made before the kept table's copier is made as code; a state copied from the finished game
 * keeps what it held. The table is taken only from a game made from the same kept setup: not from a
 * game set up anew, of another pack or engine, loaded from JSON, nor twice.
 */
import { describe, expect, it } from 'vitest';
import { apply, attach, legalChoices, newGame, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { cloneState } from '../runtime/clone.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { FORTY_TILES_YAML, packAt, playedInPlace, setUpAnew } from './helpers/keptSetup.ts';

const shuffled = compileOk(`kinds:
  game:
    state:
      deck: list<number>
rules: |
  setup {
    game.deck = [1, 2, 3, 4, 5, 6, 7, 8]
    shuffle game.deck
  }
  action pass "Pass" {
    game.deck += [0]
  }
  flow {
    for p in players {
      turn p { offer p: pass }
    }
  }
`);

const engines: EngineName[] = ['interpreter', 'generated'];

/** Past the copies made field by field before the kept table's copier is made as code (`COPIES_BEFORE_CODE`, 64). */
const GAMES = 80;

/** A game of `pack` played to its end in place, from the kept setup (the first game of a program runs its setup, and keeps it). */
function finished(pack: CompiledPack, seed: number, engine: EngineName, players = 2): GameState {
  newGame(pack, { players, seed, engine });
  return playedInPlace(newGame(pack, { players, seed, engine }), seed, 'into');
}

describe('a new game made in a finished game', () => {
  const packs: Array<[string, () => CompiledPack]> = [
    ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
    ['Connect Four', () => packAt('test/packs/connect-four')],
    ['forty tiles with lists', () => compileOk(FORTY_TILES_YAML)],
  ];
  for (const [name, make] of packs) {
    for (const engine of engines) {
      it(`${name}, ${engine}: each game the one its setup makes, in the last one's table`, () => {
        const pack = make();
        let done = finished(pack, 0, engine);
        for (let seed = 1; seed <= GAMES; seed++) {
          // A copy of the finished game (as a search makes one) shares its records: it keeps them.
          const copy = cloneState(done);
          const copyBefore = JSON.stringify(copy);
          const st = newGame(pack, { players: 2, seed, engine, into: done });
          expect(st.e).toBe(done.e);
          expect(JSON.stringify(st)).toBe(JSON.stringify(setUpAnew(pack, seed, engine)));
          expect(JSON.stringify(copy)).toBe(copyBefore);
          expect(JSON.stringify(playedInPlace(st, seed, 'into'))).toBe(JSON.stringify(playedInPlace(setUpAnew(pack, seed, engine), seed, 'into')));
          done = st;
        }
      });
    }
  }

  it('a game copied by a choice from one of the kept setup gives its table too, its source unchanged', () => {
    const pack = packAt('test/packs/connect-four');
    newGame(pack, { players: 2, seed: 1, engine: 'generated' });
    const first = newGame(pack, { players: 2, seed: 1, engine: 'generated' });
    const before = JSON.stringify(first);
    const next = apply(first, legalChoices(first)[0]);
    if (!next.ok) throw new Error(next.reason);
    const st = newGame(pack, { players: 2, seed: 2, engine: 'generated', into: next.state });
    expect(st.e).toBe(next.state.e);
    expect(JSON.stringify(st)).toBe(JSON.stringify(setUpAnew(pack, 2, 'generated')));
    expect(JSON.stringify(first)).toBe(before);
  });

  it('takes the table of no game but one made from the same kept setup, and of none twice', () => {
    const pack = packAt('test/packs/connect-four');
    const others: Array<[string, GameState, number, EngineName]> = [
      ['set up anew', playedInPlace(setUpAnew(pack, 1, 'generated'), 1, 'into'), 2, 'generated'],
      ['of another pack, of three players', finished(compileOk(FORTY_TILES_YAML, { min: 2, max: 3 }), 1, 'generated', 3), 2, 'generated'],
      ['of the other engine', finished(pack, 1, 'interpreter'), 2, 'generated'],
      ['loaded from JSON', attach(pack, JSON.parse(JSON.stringify(finished(pack, 1, 'generated'))), 'generated'), 2, 'generated'],
    ];
    for (const [why, into, seed, engine] of others) {
      const before = JSON.stringify(into);
      const st = newGame(pack, { players: 2, seed, engine, into });
      expect(st.e, why).not.toBe(into.e);
      expect(JSON.stringify(st), why).toBe(JSON.stringify(setUpAnew(pack, seed, engine)));
      expect(JSON.stringify(into), why).toBe(before);
    }
    const done = finished(pack, 1, 'generated');
    const a = newGame(pack, { players: 2, seed: 2, engine: 'generated', into: done });
    const b = newGame(pack, { players: 2, seed: 3, engine: 'generated', into: done });
    expect(a.e).toBe(done.e);
    expect(b.e).not.toBe(a.e);
    expect(JSON.stringify(a)).toBe(JSON.stringify(setUpAnew(pack, 2, 'generated')));
    expect(JSON.stringify(b)).toBe(JSON.stringify(setUpAnew(pack, 3, 'generated')));
  });

  it('a setup that shuffles runs for every game, the finished game given or not', () => {
    const done = finished(shuffled, 1, 'generated');
    const before = JSON.stringify(done);
    for (let seed = 2; seed <= 5; seed++) {
      const st = newGame(shuffled, { players: 2, seed, engine: 'generated', into: done });
      expect(st.e).not.toBe(done.e);
      expect(JSON.stringify(st)).toBe(JSON.stringify(setUpAnew(shuffled, seed, 'generated')));
    }
    expect(JSON.stringify(done)).toBe(before);
  });
});
