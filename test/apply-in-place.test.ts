/**
 * `applyInPlace` against `apply`: the same seeded games of every shipped and bench pack, a state
 * changed in place step by step against the states `apply` makes, byte for byte; a refused choice
 * (a tampered id, a require in an action's body, a budget run out midway) leaves the state as it
 * was; and no state it shares records with is ever changed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, applyInPlace, legalChoices, newGame, type GameState } from '../runtime/index.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];

describe('a game changed in place is the game apply makes', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 120_000 }, () => {
      const pack = packIn(dir);
      const players = pack.players.min;
      for (const seed of [1, 2]) {
        const kept = newGame(pack, { players, seed });
        const keptJson = JSON.stringify(kept);
        // Both made by apply from `kept`, so sharing its records; one goes on by apply, the other changed in place.
        const id = legalChoices(kept)[0].id;
        let pure: GameState = (apply(kept, id) as { state: GameState }).state;
        const pureFirst = pure;
        const pureFirstJson = JSON.stringify(pure);
        const mine = (apply(kept, id) as { state: GameState }).state;
        let rng = seedState(`in place ${seed}`);
        for (let step = 0; step < 80 && !pure.over; step++) {
          const legal = legalChoices(pure, { labels: false });
          const mineLegal = legalChoices(mine, { labels: false });
          expect(mineLegal).toEqual(legal);
          if (!legal.length) break;
          const r = nextRandom(rng);
          rng = r.state;
          const k = Math.floor(r.value * legal.length);
          // A tampered id is refused alike, and leaves the state as it was.
          const before = JSON.stringify(mine);
          const tampered = `${legal[k].id} extra`;
          const refusedPure = apply(pure, tampered);
          const refusedMine = applyInPlace(mine, tampered);
          expect(refusedMine.ok).toBe(false);
          expect(refusedMine.ok ? '' : refusedMine.reason).toBe(refusedPure.ok ? '' : refusedPure.reason);
          expect(JSON.stringify(mine)).toBe(before);
          const a = apply(pure, legal[k]);
          const b = applyInPlace(mine, mineLegal[k].id);
          expect(b.ok).toBe(a.ok);
          if (!a.ok || !b.ok) break;
          expect(b.state).toBe(mine);
          pure = a.state;
          expect(JSON.stringify(mine), `${dir} seed ${seed} step ${step}`).toBe(JSON.stringify(pure));
        }
        expect(JSON.stringify(kept)).toBe(keptJson);
        expect(JSON.stringify(pureFirst)).toBe(pureFirstJson);
      }
    });
  }
});

describe('a choice refused in place leaves the state as it was', () => {
  it('at a require in the action’s body, after it wrote fields', () => {
    const pack = compileOk(budgetGame(`action spin "Spin" {\n  game.n = 5\n  game.xs += [1]\n  require game.n > 9 else "not yet"\n}`));
    const st = newGame(pack, { players: 2, seed: 1 });
    const before = JSON.stringify(st);
    expect(legalChoices(st).map((c) => c.id)).toContain('spin');
    const r = applyInPlace(st, 'spin');
    expect(r).toMatchObject({ ok: false, reason: 'not yet' });
    expect(JSON.stringify(st)).toBe(before);
    const rest = applyInPlace(st, 'rest');
    expect(rest.ok && rest.state.prompt?.player).toBe('p2');
  });

  it('when a budget runs out midway', () => {
    const pack = compileOk(budgetGame(`action spin "Spin" {\n  game.n = 1\n  game.s = "ab"\n  repeat 40 {\n    game.s = game.s + game.s\n  }\n}`));
    const st = newGame(pack, { players: 1, seed: 1 });
    const before = JSON.stringify(st);
    const r = applyInPlace(st, 'spin');
    expect(r).toMatchObject({ ok: false, budget: 'text' });
    expect(JSON.stringify(st)).toBe(before);
  });
});
