/**
 * An entity item's state values (`charge: 5` on an item whose kind has `state: { charge: number }`)
 * are where its record starts, on both engines and from a kept setup alike; a value of the wrong
 * type is refused at the value; a compiled pack sent to another thread keeps them.
 */
import { describe, expect, it } from 'vitest';
import { applyInPlace, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { packForm, packFromForm } from '../runtime/transfer.ts';
import { compileOk, diagnosticsOf } from './helpers/inlinePack.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

const yaml = (charge: string) => `kinds:
  cell:
    props:
      size: number
    state:
      charge: number
      label: text
      marks: list<number>
      on: bool
entities:
  - cell: full
    size: 3
    charge: ${charge}
    marks: [1, 2]
    on: true
  - cell: empty
    size: 1
rules: |
  action drain "Drain" {
    full.charge -= 1
    put 9 on top of full.marks
  }
  flow {
    for p in players {
      turn p { offer p: drain }
    }
  }
`;

const pack = compileOk(yaml('5'));

describe("an entity item's initial state", () => {
  it.each(ENGINES)('starts the record with the values the item gives, the kind defaults for the rest (%s)', (engine) => {
    for (let game = 0; game < 3; game++) {
      // The second and third games start from the setup the first kept: draining one game must not reach the next.
      const st: GameState = newGame(pack, { players: 1, seed: game, engine });
      expect({ ...st.e.full }).toEqual({ charge: 5, label: '', marks: [1, 2], on: true });
      expect({ ...st.e.empty }).toEqual({ charge: 0, label: '', marks: [], on: false });
      const drain = legalChoices(st).find((c) => c.action === 'drain')!;
      applyInPlace(st, drain);
      expect({ ...st.e.full }).toEqual({ charge: 4, label: '', marks: [9, 1, 2], on: true });
    }
  });

  it('keeps state values out of the props', () => {
    expect({ ...pack.entities.full.props }).toEqual({ size: 3 });
    expect({ ...pack.starts.full }).toEqual({ charge: 5, marks: [1, 2], on: true });
    expect(pack.starts.empty).toBeUndefined();
  });

  it('refuses a value of the wrong type at the value', () => {
    const errors = diagnosticsOf(yaml('lots')).filter((d) => d.severity === 'error');
    const line = yaml('lots').split('\n').findIndex((l) => l.includes('charge: lots')) + 1;
    expect(errors.map((d) => ({ code: d.code, file: d.file, line: d.line, column: d.column, message: d.message }))).toEqual([
      { code: 'RB0218', file: 'game.yaml', line, column: 13, message: '`charge` should be a number, not `lots`' },
    ]);
  });

  it('survives the trip to another thread, and a form starting a field the kind lacks is refused', () => {
    const back = packFromForm(structuredClone(packForm(pack)));
    expect(Object.getPrototypeOf(back.starts)).toBeNull();
    for (const engine of ENGINES) expect(JSON.stringify(newGame(back, { players: 1, seed: 7, engine }))).toBe(JSON.stringify(newGame(pack, { players: 1, seed: 7, engine })));
    expect(newGame(back, { players: 1, seed: 7 }).e.full.charge).toBe(5);

    const odd = structuredClone(packForm(pack));
    odd.pack.starts.full.size = 9;
    expect(() => packFromForm(odd)).toThrow('pack.starts.full.size starts the field "size", which the kind "cell" has not');
    const stranger = structuredClone(packForm(pack));
    stranger.pack.starts.nobody = { charge: 1 };
    expect(() => packFromForm(stranger)).toThrow('pack.starts.nobody gives starting state to "nobody", which is no entity of the pack');
  });
});
