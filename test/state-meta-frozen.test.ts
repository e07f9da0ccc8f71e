/**
 * What the runtime keeps with a state (`stateMeta.ts`): a state frozen by its owner cannot take the
 * private field, and keeps its meta apart; every state the runtime makes itself (a copy for a choice,
 * a new game from a kept setup) is its own literal and is given its meta without being asked whether
 * it can take one. A frozen state loaded from JSON is played as the same state unfrozen, choice by
 * choice, the next states and their copies playing on; each copy has a meta of its own.
 */
import { describe, expect, it } from 'vitest';
import { apply, attach, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { metaIfAny } from '../runtime/stateMeta.ts';
import { packAt } from './helpers/keptSetup.ts';
import { picker } from './helpers/seededGame.ts';

const engines: EngineName[] = ['interpreter', 'generated'];

function deepFrozen<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFrozen((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

describe('a state frozen by its owner', () => {
  for (const dir of ['test/packs/tictactoe', 'test/packs/relics']) {
    for (const engine of engines) {
      it(`${dir} (${engine}): played as the same state unfrozen, every copy with a meta of its own`, () => {
        const pack = packAt(dir);
        const start = newGame(pack, { players: 2, seed: 7, engine });
        let frozen: GameState = attach(pack, deepFrozen(JSON.parse(JSON.stringify(start)) as GameState), engine);
        let plain: GameState = attach(pack, JSON.parse(JSON.stringify(start)) as GameState, engine);
        expect(Object.isFrozen(frozen)).toBe(true);
        expect(metaIfAny(frozen)).toBeDefined();
        const pick = picker(`frozen${dir}${engine}`);
        for (let n = 0; n < 6 && !plain.over; n++) {
          const legal = legalChoices(plain);
          expect(legalChoices(frozen)).toEqual(legal);
          const choice = legal[pick(legal.length)];
          const before = JSON.stringify(frozen);
          const a = apply(frozen, choice);
          const b = apply(plain, choice);
          if (!a.ok || !b.ok) throw new Error(`refused: ${a.ok ? '' : a.reason} ${b.ok ? '' : b.reason}`);
          expect(JSON.stringify(a.state)).toBe(JSON.stringify(b.state));
          expect(metaIfAny(a.state)).toBeDefined();
          expect(metaIfAny(a.state)).not.toBe(metaIfAny(frozen));
          expect(JSON.stringify(frozen)).toBe(before);
          frozen = a.state;
          plain = b.state;
        }
        expect(plain.choices.length).toBeGreaterThan(0);
      });
    }
  }
});
