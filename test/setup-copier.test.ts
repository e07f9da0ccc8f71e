/**
 * A kept setup (`setupSnapshot.ts`) copied often enough is copied by a copier made as code
 * (`codegen/copier.ts`): the games it starts are byte for byte the games their setup run anew
 * makes, also once played in place to their end, on both engines; no two of them, nor the kept
 * setup, share a record or a list; every record and table keeps the records' prototype; where
 * making code is forbidden, the kept setup is copied field by field, to the same games.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { applyInPlace, legalChoices, newGame, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { picker } from './helpers/seededGame.ts';

function packAt(dir: string): CompiledPack {
  const r = compile(readPackFolder(dir));
  if (!r.pack) throw new Error(`${dir} does not compile`);
  return r.pack;
}

/** More records than one copying function takes (32), lists in records of the pack's entities and of the game. */
const tilesYaml = `kinds:
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

/** Past the copies made field by field before the copier is made (`COPIES_BEFORE_CODE`, 64). */
const GAMES = 80;

const engines: EngineName[] = ['interpreter', 'generated'];

function setUpAnew(pack: CompiledPack, seed: number, engine: EngineName): GameState {
  return newGame(pack, { players: 2, seed, engine, prepare: () => {} });
}

function playedInPlace(st: GameState, seed: number): GameState {
  const pick = picker(`copier${seed}`);
  while (!st.over) {
    const legal = legalChoices(st, { labels: false });
    const r = applyInPlace(st, legal[pick(legal.length)]);
    if (!r.ok) throw new Error(r.reason);
  }
  return st;
}

/** Every object of `st`'s entity table, the table first: records and the lists in them. */
function objectsOf(st: GameState): object[] {
  const out: object[] = [st.e];
  for (const rec of Object.values(st.e)) {
    out.push(rec);
    for (const v of Object.values(rec)) if (v !== null && typeof v === 'object') out.push(v);
  }
  return out;
}

/** Plays `GAMES` games of `pack` from a kept setup, each checked against its setup run anew; gives the objects of every game's table. */
function playAndCheck(pack: CompiledPack, engine: EngineName): Set<object> {
  const seen = new Set<object>();
  for (let seed = 1; seed <= GAMES; seed++) {
    const st = newGame(pack, { players: 2, seed, engine });
    const anew = setUpAnew(pack, seed, engine);
    expect(JSON.stringify(st)).toBe(JSON.stringify(anew));
    for (const o of objectsOf(st)) {
      expect(seen.has(o)).toBe(false);
      seen.add(o);
    }
    for (const rec of [st.e, ...Object.values(st.e)]) {
      // The records' prototype: no prototype above it, so no field is found that was not given.
      expect(Object.getPrototypeOf(Object.getPrototypeOf(rec))).toBeNull();
      expect('toString' in rec).toBe(false);
    }
    // Played to the end in place, it changes no other game's records, nor the kept setup's.
    expect(JSON.stringify(playedInPlace(st, seed))).toBe(JSON.stringify(playedInPlace(anew, seed)));
  }
  return seen;
}

/** Runs `run` with `new Function` replaced by `construct`, as a page's content security policy would. */
function withFunction<T>(construct: (args: unknown[]) => unknown, run: () => T): T {
  const real = globalThis.Function;
  globalThis.Function = new Proxy(real, { construct: (target, args) => construct(args) ?? Reflect.construct(target, args) });
  try {
    return run();
  } finally {
    globalThis.Function = real;
  }
}

describe('a kept setup copied by its copier made as code', () => {
  const packs: Array<[string, () => CompiledPack]> = [
    ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
    ['Connect Four', () => packAt('test/packs/connect-four')],
    ['forty tiles with lists', () => compileOk(tilesYaml)],
  ];
  for (const [name, make] of packs) {
    for (const engine of engines) {
      it(`${name}, ${engine}: the games their setup makes, sharing no record or list`, () => {
        const pack = make();
        programOf(pack, engine);
        let made = 0;
        withFunction(
          () => void made++,
          () => playAndCheck(pack, engine),
        );
        // The copier, once: the program was made before the games.
        expect(made).toBe(1);
      });
    }
  }

  it('where making code is forbidden, copies field by field to the same games', () => {
    const pack = compileOk(tilesYaml);
    programOf(pack, 'interpreter');
    let refused = 0;
    withFunction(
      () => {
        refused++;
        throw new EvalError('code generation from strings disallowed for this context');
      },
      () => playAndCheck(pack, 'interpreter'),
    );
    expect(refused).toBe(1);
  });
});
