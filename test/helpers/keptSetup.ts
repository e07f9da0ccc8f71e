/**
 * What the tests of new games made from a kept setup share (engine-setup-reuse, setup-copier,
 * setup-into, records-by-number): a pack folder compiled, the game its setup run anew makes, a game
 * played to its end in place, and a pack of more records than stay in V8's fast form.
 */
import { compile } from '../../compiler/index.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { applyInPlace, legalChoices, newGame, type CompiledPack, type EngineName, type GameState } from '../../runtime/index.ts';
import { picker } from './seededGame.ts';

export function packAt(dir: string): CompiledPack {
  const r = compile(readPackFolder(dir));
  if (!r.pack) throw new Error(`${dir} does not compile`);
  return r.pack;
}

/** The game as its setup run anew makes it: edits (none here) make `newGame` run the setup. */
export function setUpAnew(pack: CompiledPack, seed: number, engine: EngineName, players = 2): GameState {
  return newGame(pack, { players, seed, engine, prepare: () => {} });
}

/** `st` played to its end in place, by picks seeded from `label` and `seed`. */
export function playedInPlace(st: GameState, seed: number, label: string): GameState {
  const pick = picker(`${label}${seed}`);
  while (!st.over) {
    const legal = legalChoices(st, { labels: false });
    const r = applyInPlace(st, legal[pick(legal.length)]);
    if (!r.ok) throw new Error(r.reason);
  }
  return st;
}

/** Forty tiles, more records than stay in V8's fast form or one copying function takes (32), with lists in records of the pack's entities and of the game. */
export const FORTY_TILES_YAML = `kinds:
  tile:
    state:
      owner: player?
      marks: list<number>
  game:
    state:
      deck: list<number>
      n: number
entities:
${Array.from({ length: 40 }, (_, i) => `  - tile: t${i + 1}\n`).join('')}rules: |
  setup {
    game.deck = [3, 1, 2]
  }
  action mark(t: tile) "Mark {t}" {
    require t.owner == none else "{t} is taken"
    t.owner = me
    t.marks += [game.n]
    game.deck += [game.n]
    game.n += 1
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: mark }
      }
    }
  }
`;
