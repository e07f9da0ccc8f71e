/**
 * A kept setup (`setupSnapshot.ts`) copied often enough is copied by a copier made as code
 * (`codegen/copier.ts`): the games it starts are byte for byte the games their setup run anew
 * makes, also once played in place to their end, on both engines; no two of them, nor the kept
 * setup, share a record or a list; every record and table keeps the records' prototype; where
 * making code is forbidden, the kept setup is copied field by field, to the same games. What a pack
 * names or says never reaches the copier's source: ids and field names that would break out of it
 * (which the compiler refuses anyway) are read from its table, as texts in the records are.
 */
import { describe, expect, it } from 'vitest';
import { newGame, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { cloneJson, newRecord, newTable } from '../runtime/clone.ts';
import { tableCopier } from '../runtime/codegen/copier.ts';
import { programOf } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { withFunction } from './helpers/functionSwap.ts';
import { FORTY_TILES_YAML, packAt, playedInPlace, setUpAnew } from './helpers/keptSetup.ts';

/** Past the copies made field by field before the copier is made (`COPIES_BEFORE_CODE`, 64). */
const GAMES = 80;

const engines: EngineName[] = ['interpreter', 'generated'];

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
    expect(JSON.stringify(playedInPlace(st, seed, 'copier'))).toBe(JSON.stringify(playedInPlace(anew, seed, 'copier')));
  }
  return seen;
}

describe('a kept setup copied by its copier made as code', () => {
  const packs: Array<[string, () => CompiledPack]> = [
    ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
    ['Connect Four', () => packAt('test/packs/connect-four')],
    ['forty tiles with lists', () => compileOk(FORTY_TILES_YAML)],
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
    const pack = compileOk(FORTY_TILES_YAML);
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

/** Names that would end a string, a comment or a line of the copier's source, or reach a prototype. */
const HOSTILE = ['"]; process.exit() //', "'); throw 1; ('", '`${process.exit()}`', '*/ x /*', '\u2028x', '__proto__', 'constructor', 'toString'];

/** More entities than one copying function takes, the values of their fields (in the kept setup too) the names above. */
const hostileTextsYaml = `kinds:
  tile:
    props:
      said: text
    state:
      marks: list<text>
      last: text
  game:
    state:
      n: number
entities:
${Array.from({ length: 40 }, (_, i) => {
  const said = JSON.stringify(HOSTILE[i % HOSTILE.length]);
  return `  - tile: t${i + 1}\n    said: ${said}\n    last: ${said}\n    marks: [${said}]\n`;
}).join('')}rules: |
  action mark(t: tile) "Mark {t}" {
    t.marks += [t.said]
    t.last = t.said
    game.n += 1
  }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: mark }
      }
    }
  }
`;

describe('a copier made as code holds none of the names it copies', () => {
  it('ids and field names read from its table: the same table, none of them in its source', () => {
    const e = newTable();
    // Names of the emitted source's own (`k0`, `T`, `H`, `c0`) as ids and fields too: they must stay data.
    const names = [...HOSTILE, 'k0', 'T', 'H', 'c0'];
    names.forEach((id, i) => {
      const rec = newRecord();
      names.forEach((f, j) => (rec[f] = j % 3 === 0 ? [i, [j]] : `${id}|${f}`));
      e[id] = rec;
    });
    const sources: string[] = [];
    const copy = withFunction(
      (args) => void sources.push(String(args[args.length - 1])),
      () => tableCopier(e, Object.keys(e), Object.keys(e).map((_, i) => i), { record: newRecord, table: newTable, clone: cloneJson as (v: unknown) => unknown }),
    );
    expect(sources).toHaveLength(1);
    for (const name of HOSTILE) expect(sources[0]).not.toContain(name);
    const records: unknown[] = [];
    const out = copy.numbered(records);
    expect(records).toEqual(Object.keys(e).map((id) => out[id]));
    expect(JSON.stringify(copy.copy())).toBe(JSON.stringify(out));
    expect(Object.keys(out)).toEqual(Object.keys(e));
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.getPrototypeOf(e));
    for (const id of names) {
      expect(Object.keys(out[id])).toEqual(Object.keys(e[id]));
      expect(JSON.stringify(Object.values(out[id]))).toBe(JSON.stringify(Object.values(e[id])));
      expect(out[id].T).not.toBe(e[id].T);
      expect((out[id].T as unknown[])[1]).not.toBe((e[id].T as unknown[])[1]);
    }
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('a pack whose texts are those names, past the copies made field by field: its games, none of them in the source', () => {
    const pack = compileOk(hostileTextsYaml);
    programOf(pack, 'interpreter');
    const kept = JSON.stringify(newGame(pack, { players: 2, seed: 1, engine: 'interpreter' }).e);
    for (const name of HOSTILE) expect(kept).toContain(JSON.stringify(name).slice(1, -1));
    const sources: string[] = [];
    withFunction(
      (args) => void sources.push(String(args[args.length - 1])),
      () => playAndCheck(pack, 'interpreter'),
    );
    expect(sources).toHaveLength(1);
    for (const name of HOSTILE) expect(sources[0]).not.toContain(name);
    expect(sources[0]).toContain('t[k');
  });
});
