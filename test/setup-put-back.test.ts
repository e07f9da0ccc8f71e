/**
 * A new game copied from its kept setup (`fromSetup`), nothing written since, notes no write of a
 * choice applied to it in place: refused, it is put back by copying the setup again (`undo.ts`).
 * Checked on both engines, against a game never refused, byte for byte and in what the runtime
 * keeps beside the JSON (its records by number, its listing, what it knows of holders, which
 * records it owns): a choice refused by `applyInPlace`, by `playoutApply`, and midway through a
 * drive (`playDriven`); a copy made of the new game before is left alone; and a game written since,
 * by a choice or by hand, is put back as it was, not as the setup was.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, attach, newGame, playDriven, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { withoutLog } from '../runtime/log.ts';
import { metaOf } from '../runtime/stateMeta.ts';
import { compileOk } from './helpers/inlinePack.ts';

const pack = compileOk(`kinds:
  game:
    state:
      n: number
      xs: list<number>
  player:
    state:
      score: number
rules: |
  setup {
    game.xs = 1..6
  }
  action grow "Grow" {
    game.n += 1
    me.score += game.n
    put game.n on top of game.xs
  }
  action spin "Spin" {
    game.n = 50
    me.score = 9
    shuffle game.xs
    draw x from top of game.xs
    put x on bottom of game.xs
    remove 1 from game.xs
    game.xs += [7, 8]
    require game.n > 99 else "not yet"
  }
  flow {
    loop max 20 {
      for p in players {
        turn p { offer p: grow, spin }
      }
    }
  }
`);

const engines: EngineName[] = ['interpreter', 'generated'];

/** A new game of `engine` with `seed`, copied from the kept setup (the first game of a program keeps it). */
function fromKept(engine: EngineName, seed: number): GameState {
  newGame(pack, { players: 2, seed: 0, engine });
  const st = newGame(pack, { players: 2, seed, engine });
  expect(metaOf(st).setup).toBeDefined();
  return st;
}

/** What the runtime keeps of `st` beside its JSON, as far as a put-back must keep it. */
function kept(st: GameState) {
  const m = metaOf(st);
  const b = m.byNumber;
  // Records by number, when the state has them, are its table's records.
  if (b !== undefined && b.table === st.e) for (const [id, n] of b.numbers.of) expect(b.records[n], id).toBe(st.e[id]);
  return { owned: m.owned, listed: m.listed, kept: m.kept, setup: m.setup, written: m.written, replaced: m.replaced, table: m.table === st.e };
}

/** `moves` applied in place to `st`, each taken. */
function played(st: GameState, moves: string[]): GameState {
  for (const id of moves) {
    const r = applyInPlace(st, id);
    if (!r.ok) throw new Error(r.reason);
    expect(r.state).toBe(st);
  }
  return st;
}

/** `picks` made in playout mode (`playoutChoices`, `playoutApply`), each taken. */
function playedOut(st: GameState, picks: number[]): GameState {
  for (const k of picks) {
    expect(playoutChoices(st)).toBe(2);
    const r = playoutApply(st, k);
    if (!r.ok) throw new Error(r.reason);
  }
  return st;
}

const GAME = ['grow', 'grow', 'grow', 'grow'];

describe('a new game from its kept setup, refused a choice in place', () => {
  for (const engine of engines) {
    it(`${engine}: by applyInPlace, is the game it was, byte for byte, and plays on as one never refused`, () => {
      const st = fromKept(engine, 3);
      const json = JSON.stringify(st);
      const e = st.e;
      const before = kept(st);
      expect(applyInPlace(st, 'spin')).toMatchObject({ ok: false, reason: 'not yet', state: st });
      expect(JSON.stringify(st)).toBe(json);
      expect(st.e).toBe(e);
      expect(kept(st)).toEqual(before);
      expect(kept(st).setup).toBe(before.setup);
      const ref = newGame(pack, { players: 2, seed: 3, engine });
      expect(JSON.stringify(played(st, GAME))).toBe(JSON.stringify(played(ref, GAME)));
    });

    it(`${engine}: by playoutApply, the same, its listing kept`, () => {
      const st = fromKept(engine, 4);
      expect(playoutChoices(st)).toBe(2);
      const json = JSON.stringify(st);
      const before = kept(st);
      expect(before.listed).toBeDefined();
      expect(playoutApply(st, 1)).toMatchObject({ ok: false, reason: 'not yet' });
      expect(JSON.stringify(st)).toBe(json);
      expect(kept(st)).toEqual(before);
      expect(playoutApply(st, 0).ok).toBe(true);
      const ref = playedOut(newGame(pack, { players: 2, seed: 4, engine }), [0]);
      expect(JSON.stringify(st)).toBe(JSON.stringify(ref));
    });

    it(`${engine}: midway through a drive, refused at the choice stepping refuses, the choices before it kept`, () => {
      const st = fromKept(engine, 5);
      // Grow three times, then spin: the drive is put back from the setup, and its picks stepped.
      let k = 0;
      const noted: unknown[] = [];
      const end = playDriven(st, () => {
        noted.push(metaOf(st).written);
        return k++ < 3 ? 0 : 1;
      });
      // No write of the drive was noted: it is put back from the setup.
      expect(noted).toEqual([undefined, undefined, undefined, undefined]);
      expect(end).toMatchObject({ ok: false, made: 3, reason: 'not yet' });
      const ref = playedOut(newGame(pack, { players: 2, seed: 5, engine }), [0, 0, 0]);
      expect(JSON.stringify(st)).toBe(JSON.stringify(ref));
      expect(metaOf(st).setup).toBeUndefined();
      expect(JSON.stringify(playedOut(st, [0, 0]))).toBe(JSON.stringify(playedOut(ref, [0, 0])));
    });

    it(`${engine}: is no new game's table while a choice is under way, though it notes nothing`, () => {
      // Made without a log, as a drive's picks are: a new game made at a pick is then of the same kept setup.
      const st = withoutLog(() => fromKept(engine, 9));
      const e = st.e;
      let other: GameState | undefined;
      const end = playDriven(st, () => {
        // At the second pick: within the first choice, applied in place.
        if (st.choices.length === 1) other ??= newGame(pack, { players: 2, seed: 10, engine, into: st });
        return st.choices.length < 3 ? 0 : -1;
      });
      expect(end).toMatchObject({ ok: true, made: 3, end: 'stopped' });
      expect(other!.e).not.toBe(e);
      expect(st.e).toBe(e);
      const ref = withoutLog(() => newGame(pack, { players: 2, seed: 9, engine }));
      expect(JSON.stringify(st)).toBe(JSON.stringify(playedOut(ref, [0, 0, 0])));
    });

    it(`${engine}: leaves a copy made of it before alone`, () => {
      const st = fromKept(engine, 6);
      const copy = apply(st, 'grow');
      expect(copy.ok).toBe(true);
      const copyJson = JSON.stringify(copy.state);
      const json = JSON.stringify(st);
      expect(applyInPlace(st, 'spin').ok).toBe(false);
      expect(JSON.stringify(st)).toBe(json);
      expect(JSON.stringify(copy.state)).toBe(copyJson);
      played(copy.state, GAME);
      expect(JSON.stringify(st)).toBe(json);
      expect(JSON.stringify(played(st, ['grow']))).toBe(copyJson);
    });
  }
});

describe('a game once written is put back as it was, not as its setup was', () => {
  for (const engine of engines) {
    it(`${engine}: written by a choice`, () => {
      const st = played(fromKept(engine, 7), ['grow', 'grow']);
      expect(metaOf(st).setup).toBeUndefined();
      const json = JSON.stringify(st);
      expect(applyInPlace(st, 'spin').ok).toBe(false);
      expect(JSON.stringify(st)).toBe(json);
    });

    it(`${engine}: edited by hand, then attached`, () => {
      const st = fromKept(engine, 8);
      st.e.game.n = 40;
      (st.e.game.xs as number[]).push(12);
      attach(pack, st, engine);
      expect(metaOf(st).setup).toBeUndefined();
      const json = JSON.stringify(st);
      expect(applyInPlace(st, 'spin').ok).toBe(false);
      expect(JSON.stringify(st)).toBe(json);
      expect(st.e.game.n).toBe(40);
    });
  }
});
