/**
 * A write to an entity the rules name finds its record among the state's records by its number,
 * known when the code is made (`H.recordAt`), not by its id in the state's table; an entity known
 * only as the game is played (a parameter, a loop's variable) is still found by its id. Games so played are byte for byte the
 * interpreter's, choice by choice, copied by `apply` (whose copy shares the records it has not
 * written: the first write of each copies it, in the table and among the records by number alike),
 * applied in place and driven, and the state a copy was made from keeps what it held; a choice
 * refused after such a write leaves the state as it was, with the interpreter's reason.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, legalChoices, newGame, playDriven, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packAt } from './helpers/keptSetup.ts';
import { picker } from './helpers/seededGame.ts';

const SWEEP_YAML = `kinds:
  cell:
    state:
      mark: player?
      hits: number
  row:
    props:
      cells: list<cell>
  game:
    state:
      n: number
entities:
  - cell: a
  - cell: b
  - cell: c
  - row: r1
    cells: [a, b, c]
rules: |
  action sweep(x: cell) "Sweep from {x}" {
    game.n += 1
    x.hits += 1
    for y in r1.cells {
      y.hits += game.n
      y.mark = me
    }
  }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: sweep }
      }
    }
  }
`;

/** A named write before a check that may refuse: the refused choice leaves no trace of the write. */
const WORN_YAML = `kinds:
  cell:
    state:
      hits: number
  game:
    state:
      n: number
entities:
  - cell: a
  - cell: b
rules: |
  action poke(x: cell) "Poke {x}" {
    game.n += 1
    require x.hits < 2 else "{x} is worn"
    x.hits += 1
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: poke }
      }
    }
  }
`;

/** Each choice of a game of `pack` on `engine` made copied (`apply`) or in place, with what each gave: the state after, or the refusal and the state left. */
function refusals(pack: CompiledPack, engine: EngineName, seed: number, place: boolean): string[] {
  const pick = picker(`worn${seed}`);
  let st: GameState = newGame(pack, { players: 2, seed, engine });
  const out: string[] = [];
  while (!st.over) {
    const legal = legalChoices(st);
    const before = JSON.stringify(st);
    const r = place ? applyInPlace(st, legal[pick(legal.length)]) : apply(st, legal[pick(legal.length)]);
    if (r.ok) {
      st = r.state;
      out.push(JSON.stringify(st));
      continue;
    }
    expect(JSON.stringify(st)).toBe(before);
    out.push(`refused: ${r.reason} (${r.rule})`);
    // Played on by the first choice that is not refused, as a player would.
    const next = legal.map((c) => apply(st, c)).find((x) => x.ok);
    if (next === undefined) break;
    st = next.state;
  }
  return out;
}

const packs: Array<[string, () => CompiledPack]> = [
  ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
  ['Connect Four', () => packAt('test/packs/connect-four')],
  ['a row swept', () => compileOk(SWEEP_YAML)],
];

/** Every state of a game of `pack` on `engine`, each choice applied to a copy (`apply`), the state before checked unchanged. */
function copied(pack: CompiledPack, engine: EngineName, seed: number): string[] {
  const pick = picker(`copied${seed}`);
  let st: GameState = newGame(pack, { players: 2, seed, engine });
  const states = [JSON.stringify(st)];
  while (!st.over) {
    const legal = legalChoices(st);
    const before = JSON.stringify(st);
    const r = apply(st, legal[pick(legal.length)]);
    if (!r.ok) throw new Error(r.reason);
    expect(JSON.stringify(st)).toBe(before);
    st = r.state;
    states.push(JSON.stringify(st));
  }
  return states;
}

function inPlace(pack: CompiledPack, engine: EngineName, seed: number): string[] {
  const pick = picker(`copied${seed}`);
  const st = newGame(pack, { players: 2, seed, engine });
  const states = [JSON.stringify(st)];
  while (!st.over) {
    const legal = legalChoices(st);
    const r = applyInPlace(st, legal[pick(legal.length)]);
    if (!r.ok) throw new Error(r.reason);
    states.push(JSON.stringify(st));
  }
  return states;
}

function driven(pack: CompiledPack, engine: EngineName, seed: number): string {
  const pick = picker(`driven${seed}`);
  const st = newGame(pack, { players: 2, seed, engine });
  const r = playDriven(st, (n) => pick(n));
  if (!r.ok) throw new Error(r.reason);
  return JSON.stringify(st);
}

describe('writes by entity number', () => {
  it('the generated code writes an entity the rules name by its number, any other by its id', () => {
    expect(generatedSource(packAt('test/packs/tictactoe'))).toMatch(/H\.recordAt\(c, R\[\d+\], k\d+,/);
    const sweep = generatedSource(compileOk(SWEEP_YAML));
    expect(sweep.match(/H\.recordAt\(/g)?.length).toBe(1);
    expect(sweep.match(/H\.record\(c, E\[\d\],/g)?.length).toBe(3);
  });

  it('a choice refused after a named write leaves the state as it was, copied and in place, on both engines', () => {
    const pack = compileOk(WORN_YAML);
    expect(generatedSource(pack)).toMatch(/H\.recordAt\(/);
    let refused = 0;
    for (let seed = 1; seed <= 6; seed++) {
      for (const place of [false, true]) {
        const made = refusals(pack, 'generated', seed, place);
        expect(made).toEqual(refusals(pack, 'interpreter', seed, place));
        refused += made.filter((x) => x.startsWith('refused: ')).length;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  for (const [name, make] of packs) {
    it(`${name}: the interpreter's games, copied, in place and driven`, () => {
      const pack = make();
      for (let seed = 1; seed <= 6; seed++) {
        expect(copied(pack, 'generated', seed)).toEqual(copied(pack, 'interpreter', seed));
        expect(inPlace(pack, 'generated', seed)).toEqual(inPlace(pack, 'interpreter', seed));
        expect(driven(pack, 'generated', seed)).toBe(driven(pack, 'interpreter', seed));
      }
    });
  }
});
