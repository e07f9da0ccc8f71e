/**
 * A field written by the generated code of an entity the rules name takes its record by a number
 * found when the code is made (`H.recordAt`, `writableNumbered` in runtime/clone.ts), as a read
 * walking a list does; a parameter's or a loop's element's is looked up by id. Every check of a
 * write is kept: a record shared with another state is copied first and put among the records by
 * number, a choice applied in place and refused is put back, a state without records by number
 * (loaded from JSON, edited by hand) is written through its table, and an entity with no record
 * refuses the write. Both engines play alike, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, attach, legalChoices, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { recordsByNumber } from '../runtime/clone.ts';
import { generatedSource } from '../runtime/link.ts';
import { entityNumbers } from '../runtime/entityNumbers.ts';
import { metaOf } from '../runtime/stateMeta.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { picker } from './helpers/seededGame.ts';
import { spotsBoard } from './helpers/spotsBoard.ts';

/** `claim` reads the spots near the one claimed by number, writes that spot (a parameter), each spot near it (a loop's element), `s1` and the game (named); the seventh claim is refused after its writes. */
const pack = compileOk(
  spotsBoard(`action claim(s: spot) "Claim {s}" {
  s.owner = me
  s.hits += count(s.near where it.owner == me)
  for n in s.near {
    n.hits += 1
  }
  s1.hits += 2
  game.total += 1
  require game.total < 7 else "the board is full"
}
action pass "Pass" { }
flow {
  loop max 6 {
    for p in players {
      turn p { offer p: claim, pass }
    }
  }
}`),
  { min: 2, max: 2 },
);

const engines: EngineName[] = ['interpreter', 'generated'];
const json = (st: GameState) => JSON.stringify(st);

/** Whether `st`'s records by number, where it has them, are its table's. */
function inStep(st: GameState): boolean {
  const b = metaOf(st).byNumber;
  if (b === undefined || b.table !== st.e) return true;
  for (const [id, n] of entityNumbers(pack).of) if (b.records[n] !== st.e[id]) return false;
  return true;
}

/** A game of `seed` played by picks of `pick`'s seed on `engine`, each choice applied by `step`: every result's JSON, refusals and states alike. */
function played(engine: EngineName, seed: number, step: (st: GameState, id: string) => ReturnType<typeof apply>): string[] {
  const pick = picker(`w${seed}`);
  let st = newGame(pack, { players: 2, seed, engine });
  const seen: string[] = [json(st)];
  for (let i = 0; i < 40 && !st.over; i++) {
    const choices = legalChoices(st);
    const r = step(st, choices[pick(choices.length)].id);
    expect(inStep(r.state)).toBe(true);
    seen.push(r.ok ? json(r.state) : `${r.reason} ${r.rule} ${json(r.state)}`);
    st = r.state;
  }
  return seen;
}

describe('a field written of an entity the rules name', () => {
  it('is written by number for an entity the rules name, by id for a parameter and a loop\'s element', () => {
    const source = generatedSource(pack);
    const n = entityNumbers(pack).of;
    expect(source).toContain(`H.recordAt(c, ${n.get('game')}, `);
    expect(source).toContain(`H.recordAt(c, ${n.get('s1')}, `);
    // A parameter, and a statement's loop's element, are in variables: looked up by id.
    expect(source).toMatch(/H\.record\(c, E\[0\], /);
    expect(source).toMatch(/H\.record\(c, E\[1\], /);
  });

  for (const [how, step] of [
    ['copied by apply', (st: GameState, id: string) => apply(st, id)],
    ['applied in place', (st: GameState, id: string) => applyInPlace(st, id)],
  ] as const) {
    it(`plays alike on both engines, byte for byte, refusals after writes included (${how})`, () => {
      let refused = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const [a, b] = engines.map((e) => played(e, seed, step));
        expect(b).toEqual(a);
        refused += a.filter((s) => s.startsWith('the board is full')).length;
      }
      expect(refused).toBeGreaterThan(0);
    });
  }

  it('copies a record shared with the state it was copied from before writing it, and puts the copy among the records by number', () => {
    const st = newGame(pack, { players: 2, seed: 3, engine: 'generated' });
    playoutChoices(st);
    playoutApply(st, 0);
    const before = json(st);
    const game = st.e.game;
    const r = apply(st, legalChoices(st).find((c) => c.id.startsWith('claim'))!.id);
    expect(r.ok).toBe(true);
    expect(json(st)).toBe(before);
    expect(st.e.game).toBe(game);
    expect(r.state.e.game).not.toBe(game);
    expect(r.state.e.game.total).toBe((game.total as number) + 1);
    expect(metaOf(r.state).byNumber).toBeDefined();
    expect(inStep(r.state)).toBe(true);
  });

  it('puts back a choice applied in place and refused after writing by number, its records by number with it', () => {
    for (const engine of engines) {
      const st = newGame(pack, { players: 2, seed: 5, engine });
      let refusal: ReturnType<typeof apply> | undefined;
      for (let i = 0; i < 40 && refusal === undefined; i++) {
        const claims = legalChoices(st).filter((c) => c.id.startsWith('claim'));
        const before = json(st);
        const records = metaOf(st).byNumber?.records.slice();
        const r = applyInPlace(st, claims[0].id);
        if (r.ok) continue;
        refusal = r;
        expect(r.reason).toBe('the board is full');
        expect(json(st)).toBe(before);
        if (records !== undefined) expect(metaOf(st).byNumber?.records).toEqual(records);
        expect(inStep(st)).toBe(true);
      }
      expect(refusal, engine).toBeDefined();
    }
  });

  it('writes a state loaded from JSON, which has no records by number, through its table', () => {
    const results = engines.map((engine) => {
      const played = newGame(pack, { players: 2, seed: 7, engine });
      playoutChoices(played);
      playoutApply(played, 0);
      const st = attach(pack, JSON.parse(json(played)) as GameState, engine);
      expect(metaOf(st).byNumber).toBeUndefined();
      const r = applyInPlace(st, legalChoices(st).find((c) => c.id.startsWith('claim'))!.id);
      expect(r.ok).toBe(true);
      expect(inStep(st)).toBe(true);
      return json(st);
    });
    expect(results[1]).toBe(results[0]);
  });

  for (const [whose, spot] of [
    ['a named entity', 's4'],
    ['a parameter', 's1'],
  ] as const) {
    it(`refuses a write to ${whose} whose record a hand edit took away, as the interpreter does`, () => {
      const results = engines.map((engine) => {
        const st = newGame(pack, { players: 2, seed: 9, engine });
        playoutChoices(st);
        playoutApply(st, 0);
        delete (st.e as Record<string, unknown>).s1;
        attach(pack, st, engine);
        // Made again from the edited table, the records by number have none for it.
        expect(recordsByNumber(st, entityNumbers(pack))[entityNumbers(pack).of.get('s1')!]).toBeUndefined();
        // Claiming s4 (not near s1) reaches the write of `s1` itself; claiming s1, the write of the parameter.
        const r = applyInPlace(st, legalChoices(st).find((c) => c.id.startsWith('claim') && c.id.includes(spot))!.id);
        expect(r.ok).toBe(false);
        return r.ok ? '' : `${r.reason} ${r.rule} ${json(st)}`;
      });
      expect(results[0]).toContain('none here');
      expect(results[1]).toBe(results[0]);
    });
  }
});
