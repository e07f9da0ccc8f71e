/**
 * A new game whose setup draws nothing from the generator starts from the state a first game's
 * setup reached (`setupSnapshot.ts`), copied with its own seed: byte for byte the state the setup
 * run anew makes (a scenario's `prepare` always runs it), on both engines, also after the games
 * before it were played in place to their end; a setup that draws (a shuffle) still runs for
 * every game, so its games differ by seed as they did.
 */
import { describe, expect, it } from 'vitest';
import { applyInPlace, attach, newGame, type CompiledPack, type EngineName } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import { fromSetup } from '../runtime/setupSnapshot.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packAt, playedInPlace, setUpAnew } from './helpers/keptSetup.ts';

const shuffled = compileOk(`kinds:
  game:
    state:
      deck: list<number>
      top: number
rules: |
  setup {
    game.deck = [1, 2, 3, 4, 5, 6, 7, 8]
    shuffle game.deck
    log "the deck is shuffled"
  }
  action pick "Pick" {
    draw x from top of game.deck
    game.top = x
  }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: pick }
      }
    }
  }
`);

const logged = compileOk(`kinds:
  game:
    state:
      n: number
rules: |
  setup {
    game.n = 4
    log "the count starts at {game.n}"
  }
  action add "Add" {
    game.n += 1
  }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: add }
      }
    }
  }
`);

const packs: Array<[string, CompiledPack]> = [
  ['tic-tac-toe', packAt('test/packs/tictactoe')],
  ['Connect Four', packAt('test/packs/connect-four')],
  ['a setup that logs', logged],
  ['a setup that shuffles', shuffled],
];

const engines: EngineName[] = ['interpreter', 'generated'];

describe('a new game from a kept setup is the game its setup makes', () => {
  for (const [name, pack] of packs) {
    for (const engine of engines) {
      it(`${name}, ${engine}`, () => {
        for (let seed = 1; seed <= 4; seed++) {
          const st = newGame(pack, { players: 2, seed, engine });
          expect(JSON.stringify(st)).toBe(JSON.stringify(setUpAnew(pack, seed, engine)));
          const end = JSON.stringify(playedInPlace(st, seed, 'reuse'));
          expect(end).toBe(JSON.stringify(playedInPlace(setUpAnew(pack, seed, engine), seed, 'reuse')));
        }
        // The games above came from a kept setup, except where the setup drew from the generator.
        const kept = fromSetup(programOf(pack, engine), 2, 5);
        if (pack === shuffled) expect(kept).toBeUndefined();
        else expect(JSON.stringify(kept)).toBe(JSON.stringify(setUpAnew(pack, 5, engine)));
      });
    }
  }

  it('a setup that shuffles deals by the seed', () => {
    const decks = new Set([1, 2, 3, 4].map((seed) => JSON.stringify(newGame(shuffled, { players: 2, seed }).e.game.deck)));
    expect(decks.size).toBeGreaterThan(1);
  });

  for (const engine of engines) {
    it(`is not changed by the game it was kept from, edited by hand (${engine})`, () => {
      const pack = compileOk(`kinds:
  game:
    state:
      n: number
      xs: list<number>
rules: |
  setup {
    game.xs = 1..3
  }
  action fail "Fail" {
    game.n += 1
    require game.n > 99 else "not yet"
  }
  flow {
    for p in players {
      turn p { offer p: fail }
    }
  }
`);
      // The first game runs the setup, which is kept; the second is copied from it.
      const first = newGame(pack, { players: 2, seed: 1, engine });
      const second = newGame(pack, { players: 2, seed: 2, engine });
      const json = JSON.stringify(second);
      first.e.game.n = 40;
      (first.e.game.xs as number[]).push(99);
      attach(pack, first, engine);
      expect(JSON.stringify(newGame(pack, { players: 2, seed: 2, engine }))).toBe(json);
      // A refused choice puts the second game back by copying the kept setup again: as it was.
      expect(applyInPlace(second, 'fail').ok).toBe(false);
      expect(JSON.stringify(second)).toBe(json);
    });
  }
});
