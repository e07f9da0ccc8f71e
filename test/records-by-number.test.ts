/**
 * A state's records by entity number (`recordsByNumber` in runtime/clone.ts, numbers from
 * runtime/entityNumbers.ts) stay in step with its entity table once asked for: through copies made
 * by `apply` (which share records until one is written and copied), choices applied in place and
 * refused after writes (an undo puts the records back), driven playouts, new games from a kept
 * setup (past the copies made before its copier is made as code) and made in a finished game
 * (`into`); a state edited by hand drops them, and they are made again from its table.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, legalChoices, newGame, playDriven, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { recordsByNumber } from '../runtime/clone.ts';
import { entityNumbers } from '../runtime/entityNumbers.ts';
import { metaOf } from '../runtime/stateMeta.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { picker } from './helpers/seededGame.ts';
import { packAt } from './helpers/keptSetup.ts';

/** Records of tiles, the players and the game (lists in them), none of the marker; `grab` writes three records, then refuses a cracked tile. */
const grabYaml = `kinds:
  tile:
    props:
      cracked: bool
    state:
      owner: player?
      marks: list<number>
  player:
    state:
      grabbed: number
  marker:
    props:
      size: number
  game:
    state:
      n: number
entities:
${Array.from({ length: 30 }, (_, i) => `  - tile: t${i + 1}\n    cracked: ${i % 3 === 2}\n`).join('')}  - marker: m1
    size: 2
rules: |
  action grab(t: tile) "Grab {t}" {
    t.owner = me
    t.marks += [game.n]
    me.grabbed += 1
    game.n += 1
    require not t.cracked else "{t} is cracked"
  }
  flow {
    loop max 6 {
      for p in players {
        turn p { offer p: grab }
      }
    }
  }
`;

/** Whether `st`'s records by number, where it has them, are its table's: each numbered id's record, none for the others. */
function inStep(pack: CompiledPack, st: GameState): boolean {
  const b = metaOf(st).byNumber;
  if (b === undefined || b.table !== st.e) return true;
  const numbers = entityNumbers(pack);
  for (const id of Object.keys(st.e)) if (!numbers.of.has(id)) return false;
  for (const [id, n] of numbers.of) if (b.records[n] !== st.e[id]) return false;
  return b.records.length === numbers.count;
}

/** Asks for `st`'s records by number (as code reading them does), so that they are kept from now on. */
function asked(pack: CompiledPack, st: GameState): void {
  recordsByNumber(st, entityNumbers(pack));
  expect(metaOf(st).byNumber?.table).toBe(st.e);
}

const engines: EngineName[] = ['interpreter', 'generated'];

describe('records by entity number', () => {
  const packs: Array<[string, () => CompiledPack]> = [
    ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
    ['Connect Four', () => packAt('test/packs/connect-four')],
    ['tiles grabbed, a cracked one refused', () => compileOk(grabYaml)],
  ];
  for (const [name, make] of packs) {
    for (const engine of engines) {
      it(`${name}, ${engine}: in step through copies, choices in place and refused, drives and new games`, () => {
        const pack = make();
        let done: GameState | undefined;
        // Past the copies made field by field before the kept setup's copier is made as code (64).
        for (let seed = 1; seed <= 70; seed++) {
          const st = newGame(pack, { players: 2, seed, engine, into: seed % 3 ? done : undefined });
          // Copied from the kept setup once the pack's records were asked for (by the first game), it has them at once.
          if (seed > 1) expect(metaOf(st).byNumber?.table).toBe(st.e);
          expect(inStep(pack, st)).toBe(true);
          asked(pack, st);
          const pick = picker(`numbers${seed}`);
          let copy = st;
          // A few choices by copies, each sharing its records with the state before until it writes one.
          for (let k = 0; k < 3 && !copy.over; k++) {
            const legal = legalChoices(copy);
            const before = copy;
            const r = apply(copy, legal[pick(legal.length)]);
            expect(inStep(pack, before)).toBe(true);
            expect(inStep(pack, r.state)).toBe(true);
            if (r.ok) copy = r.state;
          }
          // Then in place: a refused choice puts back the records it copied or wrote.
          for (let tries = 0; !copy.over; tries++) {
            expect(tries).toBeLessThan(1000);
            const legal = legalChoices(copy);
            applyInPlace(copy, legal[pick(legal.length)]);
            expect(inStep(pack, copy)).toBe(true);
          }
          // The game from the start again, driven, its records asked for before.
          const driven = newGame(pack, { players: 2, seed, engine });
          asked(pack, driven);
          const p2 = picker(`driven${seed}`);
          playDriven(driven, (n) => p2(n));
          expect(inStep(pack, driven)).toBe(true);
          done = driven;
        }
      });
    }
  }

  it('a refused choice that copied a shared record puts it back among the records by number', () => {
    const pack = compileOk(grabYaml);
    const first = newGame(pack, { players: 2, seed: 1, engine: 'generated' });
    asked(pack, first);
    const numbers = entityNumbers(pack);
    // t1 grabbed twice by copies; a grab of cracked t3 (the third listed) is refused after writing records the copy shares.
    let st = first;
    for (let k = 0; k < 2; k++) {
      const r = apply(st, legalChoices(st)[0]);
      if (!r.ok) throw new Error(r.reason);
      st = r.state;
    }
    const shared = new Map(Object.keys(st.e).map((id) => [id, st.e[id]]));
    const r = applyInPlace(st, legalChoices(st)[2]);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toContain('cracked');
    expect(metaOf(st).byNumber!.table).toBe(st.e);
    const records = metaOf(st).byNumber!.records;
    for (const [id, rec] of shared) {
      expect(st.e[id]).toBe(rec);
      expect(records[numbers.of.get(id)!]).toBe(rec);
    }
  });

  it('a state edited by hand drops them; asked again, they are its table', () => {
    const pack = compileOk(grabYaml);
    let edited: GameState | undefined;
    const st = newGame(pack, {
      players: 2,
      seed: 1,
      engine: 'generated',
      prepare: (s) => {
        asked(pack, s);
        s.e.t1 = { owner: 'p2', marks: [7] };
        edited = s;
      },
    });
    expect(st).toBe(edited);
    expect(metaOf(st).byNumber).toBeUndefined();
    const records = recordsByNumber(st, entityNumbers(pack));
    expect(records[entityNumbers(pack).of.get('t1')!]).toBe(st.e.t1);
    expect(records[entityNumbers(pack).of.get('m1')!]).toBeUndefined();
    expect(inStep(pack, st)).toBe(true);
  });
});
