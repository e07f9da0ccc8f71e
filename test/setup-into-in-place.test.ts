/**
 * A new game made in a game no longer wanted (`NewGameOptions.into`) whose records are all its
 * own takes them as they are, each field given its kept setup's value again in place, where they
 * used to be replaced by copies (`ownsEveryRecord` in clone.ts). Its games are byte for byte the ones
 * their setup run anew makes, choice after choice, stepped or driven, on both engines, past the
 * copies made before the kept table's copier is made as code, on every test and content pack. A
 * game whose records are not all its own for sure (copied by a choice, or edited by hand and
 * attached again, even to hold another game's record) gives its table but not its records: no
 * other game and no later game from the kept setup changes for it.
 */
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, attach, legalChoices, newGame, playDriven, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { FORTY_TILES_YAML, packAt, playedInPlace, setUpAnew } from './helpers/keptSetup.ts';
import { picker } from './helpers/seededGame.ts';

const engines: EngineName[] = ['interpreter', 'generated'];

/** Past the copies made field by field before the kept table's copier is made as code (`COPIES_BEFORE_CODE`, 64). */
const GAMES = 80;

/** Each listing and each state after a choice of `st` stepped in place by picks from `seed`, as JSON, up to `most` choices. */
function trail(st: GameState, seed: number, most: number): string[] {
  const pick = picker(`in place ${seed}`);
  const out = [JSON.stringify(st)];
  for (let n = 0; n < most && !st.over; n++) {
    const legal = legalChoices(st, { labels: false });
    out.push(JSON.stringify(legal));
    if (!legal.length) break;
    const r = applyInPlace(st, legal[pick(legal.length)]);
    out.push(JSON.stringify(r.ok ? st : r));
    if (!r.ok) break;
  }
  return out;
}

/** `st` driven to its end (`playDriven`), as a playout plays it, by picks from `seed`. */
function driven(st: GameState, seed: number): GameState {
  const pick = picker(`driven ${seed}`);
  const r = playDriven(st, (n) => pick(n));
  if (!r.ok) throw new Error(r.reason);
  return st;
}

/** The record objects of `st`'s table, by id. */
function recordsOf(st: GameState): Map<string, object> {
  return new Map(Object.entries(st.e));
}

/** A game of `pack` from the kept setup (the first game of a program runs its setup and keeps it), played to its end in place. */
function finished(pack: CompiledPack, seed: number, engine: EngineName): GameState {
  newGame(pack, { players: 2, seed, engine });
  return playedInPlace(newGame(pack, { players: 2, seed, engine }), seed, 'finished');
}

describe('a new game in the records of a game no longer wanted', () => {
  const small: Array<[string, () => CompiledPack]> = [
    ['tic-tac-toe', () => packAt('test/packs/tictactoe')],
    ['Connect Four', () => packAt('test/packs/connect-four')],
    ['forty tiles with lists', () => compileOk(FORTY_TILES_YAML)],
  ];
  for (const [name, make] of small) {
    for (const engine of engines) {
      it(`${name}, ${engine}: each game the one its setup makes, choice by choice, in the last one's records`, () => {
        const pack = make();
        let done = finished(pack, 0, engine);
        for (let seed = 1; seed <= GAMES; seed++) {
          const before = recordsOf(done);
          const st = newGame(pack, { players: 2, seed, engine, into: done });
          expect(st.e).toBe(done.e);
          // Every record is the finished game's own, given its setup's values again.
          for (const [id, rec] of before) expect(st.e[id], id).toBe(rec);
          expect(trail(st, seed, Infinity)).toEqual(trail(setUpAnew(pack, seed, engine), seed, Infinity));
          done = st;
        }
      });

      it(`${name}, ${engine}: driven games, each made in the last one's records, the games their setup makes`, () => {
        const pack = make();
        let done = finished(pack, 0, engine);
        for (let seed = 1; seed <= GAMES; seed++) {
          const st = newGame(pack, { players: 2, seed, engine, into: done });
          expect(JSON.stringify(st)).toBe(JSON.stringify(setUpAnew(pack, seed, engine)));
          expect(JSON.stringify(driven(st, seed))).toBe(JSON.stringify(driven(setUpAnew(pack, seed, engine), seed)));
          done = st;
        }
      });
    }
  }

  // Every pack folder but those whose setup asks a question (a game set up anew with edits cannot answer it).
  const folders = ['climb', 'connect-four', 'lure', 'nested-choices', 'odd-values', 'patience', 'relay', 'relics', 'stall', 'thief', 'tictactoe', 'tiny', 'vault', 'wotlk-sample'].map((f) => `test/packs/${f}`);
  for (const dir of [...folders, 'content/smallworld-wow', 'content/wotlk', 'content/wroth']) {
    it(`${dir}: games made one in another's records, the games their setup makes, on both engines`, () => {
      const pack = packAt(dir);
      const players = Math.min(pack.players.max, Math.max(2, pack.players.min));
      // A few choices of each game: a game need not be over to be no longer wanted.
      const most = 12;
      for (const engine of engines) {
        let done: GameState | undefined;
        for (let seed = 1; seed <= 4; seed++) {
          const st = newGame(pack, { players, seed, engine, into: done });
          expect(trail(st, seed, most), `${engine} ${seed}`).toEqual(trail(setUpAnew(pack, seed, engine, players), seed, most));
          done = st;
        }
      }
    });
  }

  for (const engine of engines) {
    it(`${engine}: a game copied by a choice keeps the records it shares with the game made in its table`, () => {
      const pack = packAt('test/packs/connect-four');
      const done = finished(pack, 0, engine);
      // Played on from the finished game's kept setup copy: a choice applied to a copy shares the rest.
      const mid = newGame(pack, { players: 2, seed: 1, engine, into: done });
      const next = apply(mid, legalChoices(mid)[3]);
      if (!next.ok) throw new Error(next.reason);
      const copyBefore = JSON.stringify(next.state);
      const before = recordsOf(mid);
      const st = newGame(pack, { players: 2, seed: 2, engine, into: mid });
      expect(st.e).toBe(mid.e);
      for (const [id, rec] of before) expect(st.e[id], id).not.toBe(rec);
      expect(JSON.stringify(playedInPlace(st, 2, 'shared'))).toBe(JSON.stringify(playedInPlace(setUpAnew(pack, 2, engine), 2, 'shared')));
      expect(JSON.stringify(next.state)).toBe(copyBefore);
    });

    it(`${engine}: a game edited by hand and attached gives no record, not even one it took from another game`, () => {
      const pack = packAt('test/packs/tictactoe');
      const other = newGame(pack, { players: 2, seed: 7, engine });
      const done = finished(pack, 0, engine);
      done.e.b2 = other.e.b2;
      done.e.a1.mark = 'p2';
      attach(pack, done, engine);
      const otherBefore = JSON.stringify(other);
      const st = newGame(pack, { players: 2, seed: 3, engine, into: done });
      expect(st.e.b2).not.toBe(other.e.b2);
      expect(JSON.stringify(playedInPlace(st, 3, 'edited'))).toBe(JSON.stringify(playedInPlace(setUpAnew(pack, 3, engine), 3, 'edited')));
      expect(JSON.stringify(other)).toBe(otherBefore);
      // Nor the kept setup: a game made from it later is the one its setup makes.
      expect(JSON.stringify(newGame(pack, { players: 2, seed: 4, engine }))).toBe(JSON.stringify(setUpAnew(pack, 4, engine)));
    });

    it(`${engine}: a game given another's record by hand and attached copies it before writing it`, () => {
      const pack = packAt('test/packs/tictactoe');
      const other = newGame(pack, { players: 2, seed: 7, engine });
      const st = newGame(pack, { players: 2, seed: 8, engine });
      const otherBefore = JSON.stringify(other);
      for (const id of Object.keys(st.e)) st.e[id] = other.e[id];
      attach(pack, st, engine);
      playedInPlace(st, 8, 'given');
      expect(JSON.stringify(other)).toBe(otherBefore);
    });

    it(`${engine}: a game loaded from JSON or spread by hand, given another's record and attached, copies it before writing it`, () => {
      const pack = packAt('test/packs/tictactoe');
      const other = newGame(pack, { players: 2, seed: 7, engine });
      const otherBefore = JSON.stringify(other);
      const loaded = JSON.parse(JSON.stringify(newGame(pack, { players: 2, seed: 8, engine }))) as GameState;
      for (const id of Object.keys(loaded.e)) loaded.e[id] = other.e[id];
      playedInPlace(attach(pack, loaded, engine), 8, 'loaded');
      expect(JSON.stringify(other)).toBe(otherBefore);
      // A spread shares the lists of choices and lines with its source too: only its records are the runtime's to keep apart.
      const recordsBefore = JSON.stringify(other.e);
      playedInPlace(attach(pack, { ...other, e: { ...other.e }, choices: [], log: [] }, engine), 9, 'spread');
      expect(JSON.stringify(other.e)).toBe(recordsBefore);
    });
  }

  it('a game made in the records of one no longer wanted takes them once: the next game given it makes its own', () => {
    const pack = packAt('test/packs/connect-four');
    const done = finished(pack, 1, 'generated');
    const a = newGame(pack, { players: 2, seed: 2, engine: 'generated', into: done });
    const b = newGame(pack, { players: 2, seed: 3, engine: 'generated', into: done });
    expect(a.e).toBe(done.e);
    expect(b.e).not.toBe(a.e);
    for (const id of Object.keys(a.e)) expect(b.e[id], id).not.toBe(a.e[id]);
    const aAfter = JSON.stringify(playedInPlace(a, 2, 'once'));
    expect(JSON.stringify(playedInPlace(b, 3, 'once'))).toBe(JSON.stringify(playedInPlace(setUpAnew(pack, 3, 'generated'), 3, 'once')));
    expect(JSON.stringify(a)).toBe(aAfter);
  });
});
