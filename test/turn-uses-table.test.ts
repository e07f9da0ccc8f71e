/**
 * The table of uses a turn begins with (`startTurn`, runtime/turns.ts): made by `new` for V8 to
 * allocate it in place (`emptyUses`, runtime/clone.ts, which a new game's tables come from too), it
 * is still what a record is, an empty object on the records' prototype
 * (`newRecord`), which the limits count into (as copies) and a state's JSON writes as `{}`.
 */
import { describe, expect, it } from 'vitest';
import { newRecord } from '../runtime/clone.ts';
import { applyInPlace, legalChoices, newGame, type EngineName } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const pack = compileOk(`
kinds:
  player:
    state:
      score: number
scoring:
  score: it.score
rules: |
  action pass "Pass" { }
  action bonus "Bonus" limit 1 per turn {
    me.score += 10
  }
  flow {
    repeat 3 {
      for p in players {
        turn p {
          repeat 2 { offer p: bonus, pass }
        }
      }
    }
  }
`);

const RECORD = Object.getPrototypeOf(newRecord());

describe('a turn’s table of uses', () => {
  for (const engine of ['generated', 'interpreter'] as EngineName[]) {
    it(`is empty on the records' prototype at each turn, counts a limited action and is replaced at the next (${engine})`, () => {
      const st = newGame(pack, { players: 2, seed: 1, engine });
      let turns = 0;
      while (!st.over) {
        const turn = st.turn;
        expect(Object.getPrototypeOf(st.used)).toBe(RECORD);
        expect(Object.keys(st.used)).toEqual([]);
        expect(JSON.stringify(st.used)).toBe('{}');
        const first = st.used;
        const r = applyInPlace(st, 'bonus');
        expect(r.ok).toBe(true);
        expect(st.used).not.toBe(first);
        expect(Object.values(st.used)).toEqual([1]);
        expect(legalChoices(st).map((c) => c.id)).toEqual(['pass']);
        expect(applyInPlace(st, 'pass').ok).toBe(true);
        if (!st.over) expect(st.turn).toBe(turn + 1);
        turns++;
      }
      expect(turns).toBe(6);
      expect(st.e.p1.score).toBe(30);
      expect(st.e.p2.score).toBe(30);
    });
  }
});
